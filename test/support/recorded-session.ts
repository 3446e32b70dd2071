// A real model's replies to our meta prompts (../shared/data/meta-model-session*/), served again by the local
// OpenAI-compatible server. Each request is classified by what it asks for (and, where the prompt says, for which
// program and which cluster), and gets the next recorded reply of that kind, in the order the real run made them.
// Prompts may change; the replies stay the model's own. A request that analyses every cluster of a program at once
// gets that program's recorded program analysis, or the recorded per-cluster analyses of its round and its
// synthesis, as one reply in the shape it asks for. A child's one call (the agent's default) gets that analysis
// followed by the recorded generation reply that came after it for the same program.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ScriptedReply } from './openai-server.ts';
import { sharedDir } from './shared-dir.ts';

export const SESSION = 'data/meta-model-session';
export const sessionDir = join(sharedDir, SESSION);
export const session2Dir = join(sharedDir, 'data', 'meta-model-session-2');
export const session3Dir = join(sharedDir, 'data', 'meta-model-session-3');

export type Purpose =
  | 'proposal'
  | 'analysis'
  | 'program-analysis'
  | 'synthesis'
  | 'generation'
  | 'repair'
  | 'initialization'
  | 'summaries'
  | 'clusters';

const Call = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })).min(1),
  reply: z.string(),
});

/** The text of a request's last message (a multimodal request's text is its first part). */
export function requestText(body: { messages?: { content?: unknown }[] }): string {
  const last = body.messages?.at(-1)?.content;
  return typeof last === 'string' ? last : Array.isArray(last) ? String(last[0]?.text ?? '') : '';
}

/** What a meta request asks for, read from the phrases each prompt's task part carries. */
export function purposeOf(body: { messages?: { content?: unknown }[] }): Purpose | undefined {
  const text = requestText(body);
  if (text.includes('failed quick examination')) return 'repair';
  if (text.includes('scenario summariser')) return 'summaries';
  if (text.includes('cluster manager')) return 'clusters';
  // A child's one call: the analysis of every cluster, the proposal and the edits in one reply.
  if (text.includes('Reply in two parts')) return 'proposal';
  if (text.includes('Write the next version')) return 'generation';
  if (text.includes('Write a first memory program')) return 'initialization';
  // One analysis of every cluster with the proposal (the default), then the synthesis, which quotes the analyses.
  if (text.includes('{"clusters": [{"cluster"')) return 'program-analysis';
  if (text.includes('"changes"')) return 'synthesis';
  if (text.includes('"relevance"')) return 'analysis';
  return undefined;
}

/** The program a request is about, and the cluster an analysis of one cluster names (old and new wording). */
export function subjectOf(body: { messages?: { content?: unknown }[] }): { node?: string; cluster?: string } {
  const text = requestText(body);
  const node = /The program \((?:a new child of )?([^,\s]+),/.exec(text)?.[1];
  const tail = text.slice(text.lastIndexOf('\n\nTask:'));
  const cluster = /one cluster of tasks(?: \(|: )"([^"]+)"/.exec(tail)?.[1];
  return { ...(node ? { node } : {}), ...(cluster ? { cluster } : {}) };
}

export interface RecordedCall {
  name: string;
  purpose: Purpose;
  node?: string;
  cluster?: string;
  reply: string;
}

/** The recorded calls in the order they were made. */
export function recordedCalls(dir = sessionDir): RecordedCall[] {
  // A clone has no ../shared: its callers skip first (sharedMissing, or the bench's own check); this names the folder.
  if (!existsSync(dir)) throw new Error(`no recorded session at ${dir} (../shared, which a clone does not have)`);
  return readdirSync(dir)
    .filter((n) => /^call-\d+\.json$/.test(n))
    .sort()
    .map((name) => {
      const call = Call.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      const purpose = purposeOf({ messages: call.messages });
      if (!purpose) throw new Error(`${name}: cannot tell what the recorded request asked for`);
      return { name, purpose, ...subjectOf({ messages: call.messages }), reply: call.reply };
    });
}

/** The recorded calls, grouped by purpose in call order. */
export function recordedReplies(dir = sessionDir): Map<Purpose, string[]> {
  const byPurpose = new Map<Purpose, string[]>();
  for (const call of recordedCalls(dir))
    byPurpose.set(call.purpose, [...(byPurpose.get(call.purpose) ?? []), call.reply]);
  return byPurpose;
}

/**
 * A chat handler serving the recorded replies by purpose (each rewritten by `form` for its request, when given); a
 * purpose with none left is answered 400, which the test sees.
 */
export function replayHandler(
  replies: Map<Purpose, string[]>,
  served: Purpose[] = [],
  form?: ReplyForm,
): (body: any) => ScriptedReply {
  return (body) => {
    const purpose = purposeOf(body);
    const next = purpose ? replies.get(purpose)?.shift() : undefined;
    if (!purpose || next === undefined) return { status: 400 };
    served.push(purpose);
    return { content: form ? form(next, purpose, requestText(body)) : next };
  };
}

/** Per program, its rounds of analysis: the per-cluster analyses before each of its syntheses, and that synthesis. */
function rounds(calls: RecordedCall[]): Map<string, { analyses: RecordedCall[]; synthesis: RecordedCall }[]> {
  const out = new Map<string, { analyses: RecordedCall[]; synthesis: RecordedCall }[]>();
  const pending = new Map<string, RecordedCall[]>();
  for (const c of calls) {
    if (!c.node) continue;
    if (c.purpose === 'analysis') pending.set(c.node, [...(pending.get(c.node) ?? []), c]);
    if (c.purpose === 'synthesis') {
      out.set(c.node, [...(out.get(c.node) ?? []), { analyses: pending.get(c.node) ?? [], synthesis: c }]);
      pending.delete(c.node);
    }
  }
  return out;
}

/** One program analysis composed of a round's recorded per-cluster analyses and its synthesis. */
function composed(round: { analyses: RecordedCall[]; synthesis: RecordedCall }): string {
  const parse = (c: RecordedCall) =>
    JSON.parse(c.reply.slice(c.reply.indexOf('{'), c.reply.lastIndexOf('}') + 1)) as Record<string, unknown>;
  const clusters = round.analyses.map((a) => ({ cluster: a.cluster ?? 'all', ...parse(a) }));
  return JSON.stringify({ clusters, ...parse(round.synthesis) });
}

export interface Served {
  purpose: Purpose;
  node?: string;
  cluster?: string;
  /** The recorded calls that answered it. */
  from: string[];
}

/** What a recorded reply becomes before it is served (e.g. the edits its whole files stand for), given the request. */
export type ReplyForm = (reply: string, purpose: Purpose, request: string) => string;

/**
 * A chat handler serving each request the next unserved recorded reply of its purpose, program and cluster (or of
 * its purpose and program, or its purpose, when the recording names fewer); a program analysis gets its program's
 * next recorded program analysis, or its next round of per-cluster analyses composed. `gate` may hold a reply back
 * (e.g. until a step is done, to keep the real run's order); `form` may rewrite a reply for the request it answers.
 * A request with nothing recorded for it is answered 400 (never resent), which the test sees.
 */
export function keyedReplay(
  calls: RecordedCall[],
  served: Served[] = [],
  gate?: (purpose: Purpose, node: string | undefined) => Promise<void>,
  form?: ReplyForm,
): (body: any) => Promise<ScriptedReply> {
  const left = calls.slice();
  const programRounds = rounds(calls);
  const take = (match: (c: RecordedCall) => boolean) => {
    const i = left.findIndex(match);
    return i < 0 ? undefined : (left.splice(i, 1)[0] as RecordedCall);
  };
  /** The program's next analysis of every cluster: recorded as such, or composed of a round's per-cluster ones. */
  const programAnalysis = (node: string | undefined): { text: string; from: string[] } | undefined => {
    const whole = take((c) => c.purpose === 'program-analysis' && c.node === node);
    if (whole) return { text: whole.reply, from: [whole.name] };
    const round = node ? programRounds.get(node)?.shift() : undefined;
    return round ? { text: composed(round), from: [...round.analyses, round.synthesis].map((c) => c.name) } : undefined;
  };
  return async (body) => {
    const purpose = purposeOf(body);
    const { node, cluster } = subjectOf(body);
    if (!purpose) return { status: 400 };
    await gate?.(purpose, node);
    if (purpose === 'program-analysis') {
      const analysis = programAnalysis(node);
      if (!analysis) return { status: 400 };
      served.push({ purpose, ...(node ? { node } : {}), from: analysis.from });
      return { content: analysis.text };
    }
    if (purpose === 'proposal') {
      // The recorded analysis, then the recorded program written from it (in the form asked for).
      const analysis = programAnalysis(node);
      const generation = take((c) => c.purpose === 'generation' && c.node === node);
      if (!analysis || !generation) return { status: 400 };
      served.push({ purpose, ...(node ? { node } : {}), from: [...analysis.from, generation.name] });
      const program = form ? form(generation.reply, 'generation', requestText(body)) : generation.reply;
      return { content: `${analysis.text}\n\n${program}` };
    }
    const call =
      take((c) => c.purpose === purpose && c.node === node && c.cluster === cluster) ??
      take((c) => c.purpose === purpose && c.node === node && !c.cluster) ??
      take((c) => c.purpose === purpose && !c.node);
    if (!call) return { status: 400 };
    served.push({ purpose, ...(node ? { node } : {}), ...(cluster ? { cluster } : {}), from: [call.name] });
    return { content: form ? form(call.reply, purpose, requestText(body)) : call.reply };
  };
}
