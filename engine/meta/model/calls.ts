// The meta model's calls: one request per purpose with that purpose's token limit, journaled with its tokens.
// Identical requests of a run are asked once (SharedCalls): a twin in flight or already answered gives its reply,
// and the journal records the reuse. A reply cut off at its limit (finish reason "length") is asked again with
// twice the limit, once; a reply that does not parse is asked again with what was wrong, at most twice.
import type OpenAI from 'openai';
import { clientFor } from '../../../foundation/llm/client.ts';
import { priceOf } from '../../../foundation/llm/ledger.ts';
import type { RoleModel } from '../../../foundation/llm/models.ts';
import { readPrompt } from '../../../foundation/llm/prompt-file.ts';
import { requestKey, SharedCalls } from '../../../foundation/llm/shared-calls.ts';
import { recordingRetries } from '../../../foundation/llm/transport.ts';
import { MetaAgentError, type ModelParent } from '../types.ts';
import type { Content } from './image-parts.ts';

export const META_PURPOSES = ['scenario-summaries', 'cluster-manager', 'proposal', 'analysis', 'synthesis', 'generation', 'repair', 'initialization'] as const;
export type MetaPurpose = (typeof META_PURPOSES)[number];

/** Purposes whose reply holds a program (edits or files), not a JSON object alone. */
const PROGRAM_PURPOSES: ReadonlySet<MetaPurpose> = new Set(['proposal', 'generation', 'repair', 'initialization']);

/**
 * max_tokens per purpose. A three-file program ran to ~26 kB (~7,000 tokens) in a real run, and an analysis of every
 * cluster at once to ~5 kB per cluster: the limits leave room for both (a child's one call writes both), and a reply
 * that still reaches its limit is asked again with twice as much.
 */
export const DEFAULT_MAX_TOKENS: Readonly<Record<MetaPurpose, number>> = {
  'scenario-summaries': 4000,
  'cluster-manager': 4000,
  proposal: 24000,
  analysis: 12000,
  synthesis: 4000,
  generation: 16000,
  repair: 16000,
  initialization: 16000,
};

const MAX_PARSE_RETRIES = 2;
const TEMPERATURE = 0.7;
const system = () => readPrompt(import.meta.url, './prompts/system.txt');

/** A reply that can be fixed: `note` tells the model what to send instead (it replaces the generic note). */
export class AskAgain extends Error {
  constructor(
    message: string,
    readonly note: string,
  ) {
    super(message);
    this.name = 'AskAgain';
  }
}

/** A reply that was already asked again and is still unusable: the call fails now. */
export class CannotUse extends Error {
  override name = 'CannotUse';
}

export interface Reply {
  text: string;
  /** The max_tokens the reply was still cut at (twice the purpose's limit, or the limit when twice was refused). */
  cutAt?: number;
}

/** The request with a note appended to its text. */
function withText(user: Content, note: string): Content {
  if (typeof user === 'string') return user + note;
  return user.map((p, i) => (i === 0 && p.type === 'text' ? { ...p, text: p.text + note } : p));
}

export class ModelCaller {
  private readonly shared = new SharedCalls<Reply>();

  constructor(
    private readonly model: RoleModel,
    private readonly maxTokens: Readonly<Record<MetaPurpose, number>> = DEFAULT_MAX_TOKENS,
  ) {}

  /**
   * Asks until the reply parses (at most 1 + MAX_PARSE_RETRIES times), telling the model what was wrong (or what
   * the parser's AskAgain says to send); a CannotUse ends the call at once.
   */
  async ask<T>(ctx: ModelParent, purpose: MetaPurpose, user: Content, parse: (reply: string, cutAt?: number) => T): Promise<T> {
    let request = user;
    let lastError = '';
    let tries = 0;
    for (let attempt = 0; attempt <= MAX_PARSE_RETRIES; attempt++) {
      tries++;
      const reply = await this.chat(ctx, purpose, attempt ? `${purpose} (retry ${attempt})` : purpose, request);
      try {
        // A program's parser says what to send when the reply was cut (a JSON reply cut short does not parse).
        return parse(reply.text, reply.cutAt);
      } catch (err) {
        lastError = (err as Error).message;
        if (err instanceof CannotUse) break;
        const note = err instanceof AskAgain ? err.note : `Your previous reply could not be used: ${lastError}. Reply again, exactly in the format asked.`;
        request = withText(user, `\n\n${note}`);
      }
    }
    throw new MetaAgentError(`the meta model's ${purpose} reply could not be used after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${lastError}`);
  }

  /** One reply to `user`, shared with every identical request of the run. */
  private async chat(ctx: ModelParent, purpose: MetaPurpose, label: string, user: Content): Promise<Reply> {
    const json = !PROGRAM_PURPOSES.has(purpose);
    const limit = this.maxTokens[purpose];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: system() },
      { role: 'user', content: user },
    ];
    const key = requestKey({ model: this.model.model, baseURL: this.model.baseURL ?? null, messages, temperature: TEMPERATURE, limit, json });
    const got = await this.shared.share(key, { step: ctx.step, node: ctx.node, purpose: label }, async () => {
      const first = await this.send(ctx, label, messages, limit, json);
      if (first.finish !== 'length') return { text: first.text };
      try {
        const second = await this.send(ctx, `${label} (cut at ${limit} tokens, asked again with ${2 * limit})`, messages, 2 * limit, json);
        return { text: second.text, ...(second.finish === 'length' ? { cutAt: 2 * limit } : {}) };
      } catch (err) {
        // An endpoint whose model writes fewer tokens than twice the limit refuses the request (journaled): the
        // cut reply stands, and the caller asks for a shorter one.
        if ((err as { cause?: { status?: number } }).cause?.status !== 400) throw err;
        return { text: first.text, cutAt: limit };
      }
    });
    if (got.reusedFrom) ctx.onModelCall?.({ purpose: label, model: this.model.model, promptTokens: 0, completionTokens: 0, usd: null, ms: 0, ok: true, reused: got.reusedFrom });
    return got.value;
  }

  /** One request to the endpoint, journaled through the context with its tokens, price and finish reason. */
  private async send(ctx: ModelParent, purpose: string, messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[], maxTokens: number, json: boolean): Promise<{ text: string; finish: string }> {
    ctx.beforeModelCall?.();
    const started = Date.now();
    // Why the transport sent it again, if it did (never while the server may still be working on it).
    const retries: string[] = [];
    const retried = () => (retries.length ? { retries: retries.slice(0, 10) } : {});
    try {
      const res = await recordingRetries(retries, () =>
        clientFor(this.model).chat.completions.create({
          model: this.model.model,
          messages,
          temperature: TEMPERATURE,
          max_tokens: maxTokens,
          ...(json ? { response_format: { type: 'json_object' as const } } : {}),
        }),
      );
      const choice = res.choices[0];
      const text = choice?.message?.content ?? '';
      const finish = choice?.finish_reason ?? 'stop';
      const pt = res.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(messages).length / 4);
      const ct = res.usage?.completion_tokens ?? Math.ceil(text.length / 4);
      // Endpoints that cache prompt prefixes say how much of this prompt they served from the cache.
      const cached = res.usage?.prompt_tokens_details?.cached_tokens;
      const cachedTokens = typeof cached === 'number' && Number.isFinite(cached) && cached >= 0 ? Math.min(cached, pt) : undefined;
      ctx.onModelCall?.({
        purpose,
        model: this.model.model,
        promptTokens: pt,
        ...(cachedTokens !== undefined ? { cachedTokens } : {}),
        completionTokens: ct,
        usd: priceOf(this.model, pt, ct, cachedTokens),
        ms: Date.now() - started,
        ok: true,
        ...(finish === 'length' ? { cut: true } : {}),
        ...retried(),
      });
      return { text, finish };
    } catch (err) {
      const message = (err as Error).message;
      ctx.onModelCall?.({ purpose, model: this.model.model, promptTokens: 0, completionTokens: 0, usd: null, ms: Date.now() - started, ok: false, error: message, ...retried() });
      throw new MetaAgentError(`the meta model failed during ${purpose}: ${message}`, { cause: err });
    }
  }
}
