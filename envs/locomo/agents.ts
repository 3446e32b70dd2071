// Who answers a LoCoMo question from a memory payload. Offline: a deterministic extractive reader (it returns the
// payload line that shares the most content words with the question; the offline reward does not depend on it).
// With an `executor` model: the model answers from the payload alone, and the reward is LoCoMo's F1.
import { contentTokens } from '../../memo-programs/lib/tokenize.ts';
import type { RoleModel } from '../../foundation/llm/models.ts';
import { fillPrompt, readPrompt } from '../../foundation/llm/prompt-file.ts';
import { complete } from '../executor-model.ts';

export interface Reading {
  answer: string;
  tokens?: { prompt: number; completion: number };
}

export interface LocomoReader {
  /** Part of outcome-cache keys. */
  readonly id: string;
  readonly deterministic: boolean;
  answer(question: string, speakers: [string, string], memory: string): Promise<Reading>;
}

export class ExtractiveReader implements LocomoReader {
  readonly id = 'locomo-extractive-reader-v1';
  readonly deterministic = true;

  async answer(question: string, _speakers: [string, string], memory: string): Promise<Reading> {
    const want = new Set(contentTokens(question));
    let best = '';
    let bestScore = 0;
    for (const line of memory.split('\n')) {
      const toks = contentTokens(line);
      if (toks.length === 0) continue;
      const score = toks.filter((t) => want.has(t)).length / Math.sqrt(toks.length);
      if (score > bestScore) {
        best = line.trim();
        bestScore = score;
      }
    }
    return { answer: best ? best.slice(0, 300) : 'Not mentioned in the conversation' };
  }
}

export class ModelReader implements LocomoReader {
  readonly id: string;
  readonly deterministic = false;

  constructor(private readonly model: RoleModel) {
    this.id = `locomo-model-reader:${model.model}`;
  }

  async answer(question: string, speakers: [string, string], memory: string): Promise<Reading> {
    const prompt = fillPrompt(readPrompt(import.meta.url, './prompts/answer.txt'), {
      speakerA: speakers[0],
      speakerB: speakers[1],
      memory: memory.trim() || '(empty)',
      question,
    });
    const { text, tokens } = await complete(this.model, 'executor', [{ role: 'user', content: prompt }], 64);
    return { answer: text.trim().split('\n')[0]?.trim() ?? '', tokens };
  }
}
