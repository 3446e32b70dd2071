// A real model's replies to our meta prompts (../shared/data/meta-model-session/), served again by the local
// OpenAI-compatible server: each request is classified by what it asks for and gets the next recorded reply of
// that purpose, in the order the real run made them. Prompts may change; the replies stay the model's own.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ScriptedReply } from './openai-server.ts';
import { sharedDir } from './shared-dir.ts';

export const SESSION = 'data/meta-model-session';
export const sessionDir = join(sharedDir, SESSION);

export type Purpose = 'analysis' | 'synthesis' | 'generation' | 'repair' | 'initialization' | 'summaries' | 'clusters';

const Call = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })).min(1),
  reply: z.string(),
});

/** What a meta request asks for, read from the phrases each prompt's task part carries. */
export function purposeOf(body: { messages?: { content?: unknown }[] }): Purpose | undefined {
  const last = body.messages?.at(-1)?.content;
  // A multimodal request's text is its first part.
  const text = typeof last === 'string' ? last : Array.isArray(last) ? String(last[0]?.text ?? '') : '';
  if (text.includes('failed quick examination')) return 'repair';
  if (text.includes('scenario summariser')) return 'summaries';
  if (text.includes('cluster manager')) return 'clusters';
  if (text.includes('Write the next version')) return 'generation';
  if (text.includes('Write a first memory program')) return 'initialization';
  // The synthesis quotes the analyses, so it is told apart first.
  if (text.includes('"changes"')) return 'synthesis';
  if (text.includes('"relevance"')) return 'analysis';
  return undefined;
}

/** The recorded calls, grouped by purpose in call order. */
export function recordedReplies(dir = sessionDir): Map<Purpose, string[]> {
  const byPurpose = new Map<Purpose, string[]>();
  for (const name of readdirSync(dir).filter((n) => /^call-\d+\.json$/.test(n)).sort()) {
    const call = Call.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    const purpose = purposeOf({ messages: call.messages });
    if (!purpose) throw new Error(`${name}: cannot tell what the recorded request asked for`);
    byPurpose.set(purpose, [...(byPurpose.get(purpose) ?? []), call.reply]);
  }
  return byPurpose;
}

/** A chat handler serving the recorded replies by purpose; a purpose with none left is an error the test sees. */
export function replayHandler(replies: Map<Purpose, string[]>, served: Purpose[] = []): (body: any) => ScriptedReply {
  return (body) => {
    const purpose = purposeOf(body);
    const next = purpose ? replies.get(purpose)?.shift() : undefined;
    if (!purpose || next === undefined) return { status: 500 };
    served.push(purpose);
    return { content: next };
  };
}
