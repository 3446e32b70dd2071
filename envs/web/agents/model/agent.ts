// The model execution agent (WebVoyager style): the task, then per step the page's accessibility snapshot with
// refs and a screenshot with numbered boxes; the model replies "Thought: … Action: …" with one action in the
// grammar. The memory payload is injected once, before the first step. At most 3 screenshots stay in context
// (older ones are replaced by "(Omitted in context.)", as WebVoyager does). A reply without a valid action costs
// its step and gets a format error back. An API failure is an InfraError (retried, never scored).
import type OpenAI from 'openai';
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import { capImages } from '../../../../engine/llm/cap-images.ts';
import { clientFor } from '../../../../engine/llm/client.ts';
import type { RoleModel } from '../../../../engine/llm/models.ts';
import { fillPrompt, readPrompt } from '../../../../engine/llm/prompt-file.ts';
import type { ImageStore } from '../../../../sandbox/primitives/images.ts';
import { InfraError } from '../../../../engine/environment/contract.ts';
import { asBuffer } from '../../../../foundation/bytes.ts';
import { parseAction } from '../../browser/grammar.ts';
import type { Observation } from '../../browser/observation.ts';
import { MAX_STEPS, type Session } from '../../session.ts';
import type { WebAgent, WebAgentRun, WebTaskInput } from '../agent.ts';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Part = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface ModelAgentOptions {
  /** Screenshots kept in context (default 3, WebVoyager's max_attached_imgs). */
  maxScreenshots?: number;
  /** Characters of the snapshot sent per step. */
  snapshotChars?: number;
  /** Where payload images are looked up (by id). */
  images?: ImageStore;
}

const imagePart = (bytes: Uint8Array, mime: string): Part => ({ type: 'image_url', image_url: { url: `data:${mime};base64,${asBuffer(bytes).toString('base64')}` } });

/** The "Action:" of a reply (or its last action-looking line). */
export function actionOf(reply: string): string | undefined {
  const tagged = reply.match(/action\s*:\s*([^\n]+)/i)?.[1]?.trim();
  if (tagged) return tagged;
  return reply
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => parseAction(l) !== undefined);
}

export class ModelAgent implements WebAgent {
  readonly id: string;
  readonly deterministic = false;
  readonly mode = 'model';
  private readonly maxScreenshots: number;
  private readonly snapshotChars: number;

  constructor(
    private readonly model: RoleModel,
    private readonly options: ModelAgentOptions = {},
  ) {
    this.id = `web-model-agent:${model.model}`;
    this.maxScreenshots = options.maxScreenshots ?? 3;
    this.snapshotChars = options.snapshotChars ?? 6000;
  }

  private observation(obs: Observation, step: number, feedback: string): Part[] {
    const text = fillPrompt(readPrompt(import.meta.url, './prompts/observation.txt'), {
      step,
      maxSteps: MAX_STEPS,
      title: obs.title,
      url: obs.url,
      feedback: feedback ? `\n${feedback}` : '',
      snapshot: obs.snapshot.length > this.snapshotChars ? `${obs.snapshot.slice(0, this.snapshotChars)}\n… (snapshot cut; scroll or narrow the page)` : obs.snapshot,
    });
    return [{ type: 'text', text }, ...(obs.screenshot ? [imagePart(obs.screenshot, 'image/jpeg')] : [])];
  }

  async run(input: WebTaskInput, payload: MemoryPayload, session: Session): Promise<WebAgentRun> {
    const messages: Message[] = [{ role: 'system', content: fillPrompt(readPrompt(import.meta.url, './prompts/system.txt'), { maxSteps: MAX_STEPS }) }];
    const memory = payload.text.trim();
    if (memory || payload.images.length) {
      const parts: Part[] = [{ type: 'text', text: fillPrompt(readPrompt(import.meta.url, './prompts/memory.txt'), { memory: memory || '(images only)' }) }];
      for (const ref of payload.images) {
        const img = this.options.images?.has(ref.id) ? this.options.images.get(ref.id) : undefined;
        if (img) parts.push(imagePart(img.bytes, img.ref.mime));
      }
      messages.push({ role: 'user', content: parts });
    }
    const task = fillPrompt(readPrompt(import.meta.url, './prompts/task.txt'), { instruction: input.instruction, site: input.siteTitle });
    messages.push({ role: 'user', content: [{ type: 'text', text: task }, ...this.observation(session.page(), 1, '')] });
    const tokens = { prompt: 0, completion: 0 };
    while (!session.done) {
      capImages(messages, this.maxScreenshots, '(Omitted in context.)');
      const reply = await this.complete(messages, tokens);
      messages.push({ role: 'assistant', content: reply });
      const thought = reply.match(/thought\s*:\s*([\s\S]*?)(?:\n\s*action\s*:|$)/i)?.[1]?.trim().slice(0, 600);
      const line = actionOf(reply) ?? reply.trim().slice(0, 200);
      const r = await session.act(line, thought);
      if (session.answer !== undefined) break;
      if (!r) {
        // Only the answer step is left.
        messages.push({ role: 'user', content: 'No steps left: reply with ANSWER; your answer now.' });
        const last = await this.complete(messages, tokens);
        const a = parseAction(actionOf(last) ?? '');
        session.finish(a?.kind === 'answer' ? (a.text ?? '') : '', 'step limit reached');
        break;
      }
      const feedback = r.error ? `Your last action failed: ${r.error}` : '';
      messages.push({ role: 'user', content: this.observation(r.page, session.steps.length + 1, feedback) });
    }
    return { memoryUse: memory ? 'given to the model' : 'none', tokens };
  }

  private async complete(messages: Message[], tokens: { prompt: number; completion: number }): Promise<string> {
    try {
      const res = await clientFor(this.model).chat.completions.create({ model: this.model.model, messages, temperature: 0, max_tokens: 400 });
      tokens.prompt += res.usage?.prompt_tokens ?? 0;
      tokens.completion += res.usage?.completion_tokens ?? 0;
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      throw new InfraError(`executor model ${this.model.model} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}
