// An environment's conversation with its executor model (the model that does the task, given the memory payload):
// one completion at temperature 0 with its token counts, the memory message the model agents send first, and the
// turn loop of the visual and web model agents (the model replies, the agent acts, the model sees the result).
// A failed call is an InfraError (retried and reported as infrastructure, never scored as the memory's failure).
import type OpenAI from 'openai';
import type { MemoryPayload } from '../memo-programs/contract.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { capImages } from '../foundation/llm/cap-images.ts';
import { clientFor } from '../foundation/llm/client.ts';
import type { RoleModel } from '../foundation/llm/models.ts';
import { fillPrompt } from '../foundation/llm/prompt-file.ts';
import { InfraError } from '../engine/environment/contract.ts';
import { imagePart } from '../foundation/image-part.ts';

export type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type Part = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface Tokens {
  prompt: number;
  completion: number;
}

/** One completion at temperature 0: the reply's text as the model gave it, and the tokens it cost. */
export async function complete(model: RoleModel, role: string, messages: Message[], maxTokens: number): Promise<{ text: string; tokens: Tokens }> {
  try {
    const res = await clientFor(model).chat.completions.create({ model: model.model, messages, temperature: 0, max_tokens: maxTokens });
    return { text: res.choices[0]?.message?.content ?? '', tokens: { prompt: res.usage?.prompt_tokens ?? 0, completion: res.usage?.completion_tokens ?? 0 } };
  } catch (err) {
    throw new InfraError(`${role} model ${model.model} failed: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The memory payload as one user message: `template` filled with its text ("(images only)" when it has none),
 * then its images found in `images`; none when the payload is empty.
 */
export function memoryMessage(payload: MemoryPayload, template: string, images: ImageStore | undefined): Message | undefined {
  const memory = payload.text.trim();
  if (!memory && !payload.images.length) return undefined;
  const parts: Part[] = [{ type: 'text', text: fillPrompt(template, { memory: memory || '(images only)' }) }];
  for (const ref of payload.images) {
    const img = images?.has(ref.id) ? images.get(ref.id) : undefined;
    if (img) parts.push(imagePart(img.bytes, img.ref.mime));
  }
  return { role: 'user', content: parts };
}

export interface ExecutorChatOptions {
  /** The system prompt. */
  system: string;
  maxTokens: number;
  /** Images kept in context: older ones become `omitted`, a note. */
  maxImages: number;
  omitted: string;
}

/** One task's conversation with the executor model, and the tokens it has cost. */
export class ExecutorChat {
  readonly tokens: Tokens = { prompt: 0, completion: 0 };
  private readonly messages: Message[];

  constructor(
    private readonly model: RoleModel,
    private readonly options: ExecutorChatOptions,
  ) {
    this.messages = [{ role: 'system', content: options.system }];
  }

  /** A user message (none when `message` is undefined: an empty memory). */
  say(message: Message | string | Part[] | undefined): void {
    if (message === undefined) return;
    this.messages.push(typeof message === 'string' || Array.isArray(message) ? { role: 'user', content: message } : message);
  }

  /** The model's next reply, kept in the conversation. */
  async reply(): Promise<string> {
    capImages(this.messages, this.options.maxImages, this.options.omitted);
    const { text, tokens } = await complete(this.model, 'executor', this.messages, this.options.maxTokens);
    this.tokens.prompt += tokens.prompt;
    this.tokens.completion += tokens.completion;
    this.messages.push({ role: 'assistant', content: text });
    return text;
  }

  /**
   * The turn loop: the model replies, `act` does what the reply asks and returns what the model sees next, or
   * undefined when the run is over.
   */
  async loop(act: (reply: string) => Promise<string | Part[] | undefined>): Promise<void> {
    for (;;) {
      const next = await act(await this.reply());
      if (next === undefined) return;
      this.say(next);
    }
  }
}
