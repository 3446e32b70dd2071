// ctx.llm.chat for memo programs (the `memo` role). With no model configured, a deterministic extractive
// fallback answers: it picks the sentences of the last user message that share the most content words with the
// instructions, in their original order, and says `offline: true`.
import type { ChatRequest, ChatResult } from '../../memo-programs/contract.ts';
import { contentTokens } from '../../memo-programs/lib/tokenize.ts';
import { clientFor } from '../../foundation/llm/client.ts';
import type { RoleModel } from '../../foundation/llm/models.ts';
import { readPrompt } from '../../foundation/llm/prompt-file.ts';
import { imagePart } from '../../foundation/image-part.ts';

export interface ChatService {
  readonly offline: boolean;
  chat(request: ChatRequest): Promise<ChatResult>;
  /** One-sentence description of an image; only model-backed services have it. */
  describeImage?(bytes: Uint8Array, mime: string): Promise<string>;
}

const tokensOf = (chars: number) => Math.ceil(chars / 4);

export class OpenAIChat implements ChatService {
  readonly offline = false;
  constructor(private readonly model: RoleModel) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const res = await clientFor(this.model).chat.completions.create({
      model: this.model.model,
      messages: request.messages,
      max_tokens: request.maxTokens ?? 1000,
      temperature: request.temperature ?? 0,
      ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
    });
    const text = res.choices[0]?.message?.content ?? '';
    const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
    return {
      text,
      offline: false,
      model: res.model || this.model.model,
      usage: {
        promptTokens: res.usage?.prompt_tokens ?? tokensOf(promptChars),
        completionTokens: res.usage?.completion_tokens ?? tokensOf(text.length),
      },
    };
  }

  async describeImage(bytes: Uint8Array, mime: string): Promise<string> {
    const res = await clientFor(this.model).chat.completions.create({
      model: this.model.model,
      max_tokens: 150,
      temperature: 0,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: readPrompt(import.meta.url, './prompts/caption.txt') },
            imagePart(bytes, mime),
          ],
        },
      ],
    });
    return (res.choices[0]?.message?.content ?? '').trim();
  }
}

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export class ExtractiveChat implements ChatService {
  readonly offline = true;

  async chat(request: ChatRequest): Promise<ChatResult> {
    const messages = request.messages;
    let last = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'user') {
        last = i;
        break;
      }
    }
    const userText = last >= 0 ? (messages[last]?.content ?? '') : '';
    const others = messages.filter((_, i) => i !== last).map((m) => m.content);
    // The instruction is whatever is not the last user message; failing that, that message's first line.
    let instruction = others.join('\n');
    let source = userText;
    if (!instruction.trim()) {
      const lines = userText.split('\n');
      if (lines.length > 1) {
        instruction = lines[0] ?? '';
        source = lines.slice(1).join('\n');
      }
    }
    const sentences = splitSentences(source);
    const wanted = new Set(contentTokens(instruction));
    const scored = sentences.map((s, i) => {
      const toks = contentTokens(s);
      const overlap = toks.filter((t) => wanted.has(t)).length;
      return { i, s, score: overlap / Math.sqrt(toks.length + 1) - i * 1e-6 };
    });
    const maxChars = Math.max(40, (request.maxTokens ?? 256) * 4);
    const picked: typeof scored = [];
    let used = 0;
    for (const c of [...scored].sort((a, b) => b.score - a.score)) {
      if (used + c.s.length > maxChars && picked.length > 0) continue;
      picked.push(c);
      used += c.s.length + 1;
    }
    let extract = picked
      .sort((a, b) => a.i - b.i)
      .map((c) => c.s)
      .join(' ');
    if (extract.length > maxChars) extract = extract.slice(0, maxChars);
    const text = request.json ? JSON.stringify({ offline: true, text: extract }) : extract;
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    return {
      text,
      offline: true,
      model: 'offline-extractive',
      usage: { promptTokens: tokensOf(promptChars), completionTokens: tokensOf(text.length) },
    };
  }
}

export function createChatService(model: RoleModel | null): ChatService {
  return model ? new OpenAIChat(model) : new ExtractiveChat();
}
