// The append-only journal of a run (journal.jsonl). Every line is one event, written and fsync'd before the search
// moves on, so a kill at any moment loses at most the line being written. Reading tolerates exactly that: a torn
// last line is reported and dropped (and cut from the file before appending again); a bad line elsewhere means the
// file was damaged and is an error naming the line.
// Anyone can edit the file, so reading it is bounded (JOURNAL_LIMITS) and every node id and path in it is checked:
// ids are safe names and paths are safe relative paths, so no line can point a reader or writer outside the run.
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readSync, truncateSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { type LineLimits, readLines, sizeText } from '../foundation/bounded-lines.ts';
import { SafeNameSchema as NodeId, SafeRelPathSchema as RunPath } from '../foundation/safe-path.ts';
import { redactCredentials } from '../foundation/redact.ts';

/** A journal line is at most 8 MB (ours are a few KB); the whole journal at most 256 MB. */
export const JOURNAL_LIMITS: LineLimits = { maxLineBytes: 8 * 2 ** 20, maxFileBytes: 256 * 2 ** 20 };

const Scored = z.object({ kind: z.enum(['evaluate', 'generate']), node: NodeId, score: z.number() });

export const EventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), t: z.number(), resumed: z.boolean(), pid: z.number() }),
  z.object({
    type: z.literal('node'),
    t: z.number(),
    step: z.number().int(),
    id: NodeId,
    parent: NodeId.nullable(),
    kind: z.enum(['root', 'seed', 'child']),
    dir: RunPath,
    hash: z.string(),
    parentSnapshot: z.number().nullable(),
    description: z.string().optional(),
    edits: z.array(z.object({ path: z.string(), from: z.union([z.number(), z.boolean(), z.string()]), to: z.union([z.number(), z.boolean(), z.string()]) })).optional(),
  }),
  z.object({
    type: z.literal('evaluation'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    split: z.enum(['train', 'test']),
    index: z.number().int(),
    /** null: the evaluation scored nothing (infrastructure failed every task); it counts in no mean, no n, no N. */
    score: z.number().nullable(),
    /** Why it scored nothing, when it did not. */
    unscored: z.string().optional(),
    tasks: z.number().int(),
    sampleSeed: z.number().int().optional(),
    evidence: RunPath,
    stats: z.record(z.string(), z.unknown()),
    ms: z.number(),
  }),
  z.object({ type: z.literal('action'), t: z.number(), step: z.number().int(), kind: z.enum(['evaluate', 'generate']), node: NodeId, score: z.number(), candidates: z.array(Scored), retry: z.string().optional() }),
  // A child that would change nothing: the same program as a node of the tree, or the parent's payloads exactly on
  // every quick-examination task. It spends the step but no evaluation.
  z.object({ type: z.literal('no-op'), t: z.number(), step: z.number().int(), parent: NodeId, reason: z.string().max(2000), same: NodeId.optional(), dir: RunPath.optional(), edits: z.array(z.object({ path: z.string(), from: z.union([z.number(), z.boolean(), z.string()]), to: z.union([z.number(), z.boolean(), z.string()]) })).max(100).optional(), description: z.string().max(2000).optional() }),
  z.object({ type: z.literal('generation-failed'), t: z.number(), step: z.number().int(), parent: NodeId, reason: z.string(), attempts: z.number().int(), dir: RunPath.optional() }),
  z.object({
    type: z.literal('meta-call'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    role: z.string(),
    purpose: z.string(),
    model: z.string(),
    promptTokens: z.number(),
    /** Prompt tokens the endpoint served from its cache (usage.prompt_tokens_details.cached_tokens), when it says. */
    cachedTokens: z.number().optional(),
    completionTokens: z.number(),
    usd: z.number().nullable(),
    ms: z.number(),
    ok: z.boolean(),
    error: z.string().optional(),
    /** The reply was cut off at max_tokens; the agent asked again with a larger limit. */
    cut: z.boolean().optional(),
    /** No request was made: an identical request of the run (in flight or answered) gave its reply. */
    reused: z.object({ step: z.number().int(), node: NodeId, purpose: z.string().max(200) }).optional(),
  }),
  // CluE's clustering of one step's evidence: the pool after it (model) or the metadata groups used instead, and why.
  z.object({
    type: z.literal('clusters'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    source: z.enum(['model', 'metadata']),
    notes: z.array(z.string().max(2000)).max(100),
    clusters: z.array(z.object({ id: NodeId, label: z.string().max(500), description: z.string().max(2000), tasks: z.number().int() })).max(50),
    /** Task id → cluster id (model) or metadata group (metadata), for this step's tasks. */
    assignment: z.record(z.string().max(500), z.string().max(500)),
    /** Summaries written at this step (earlier ones are in earlier events). */
    summaries: z.record(z.string().max(500), z.string().max(2000)),
  }),
  z.object({ type: z.literal('quick-exam'), t: z.number(), step: z.number().int(), dir: RunPath, attempt: z.number().int(), passed: z.boolean(), failure: z.string().optional() }),
  z.object({ type: z.literal('step-done'), t: z.number(), step: z.number().int() }),
  // Step 0's screen of standard designs (--seeds auto): each design's score on the first validation sample, and the
  // ones kept as seeds (their nodes and evaluations follow as usual).
  z.object({
    type: z.literal('screen'),
    t: z.number(),
    step: z.number().int(),
    keep: z.number().int(),
    results: z
      .array(z.object({ design: z.string().max(4096), node: NodeId, score: z.number().nullable(), tasks: z.number().int(), evidence: RunPath, unscored: z.string().max(2000).optional(), kept: z.boolean() }))
      .max(64),
  }),
  // What the search's validation can tell apart (engine/search/validation-sampler.ts), said when a session starts.
  z.object({
    type: z.literal('validation'),
    t: z.number(),
    tasks: z.number().int(),
    perEvaluation: z.number().int(),
    samples: z.number().int(),
    deterministic: z.boolean(),
    resolvable: z.number(),
    oneTask: z.number(),
    warning: z.string().max(2000).optional(),
  }),
  // `infrastructure`: the machinery failed, not the budget; `interrupted`: the user stopped it (an AbortSignal,
  // Ctrl-C). Either way a resume carries on instead of staying stopped.
  z.object({ type: z.literal('stopped'), t: z.number(), step: z.number().int(), reason: z.string(), infrastructure: z.boolean().optional(), interrupted: z.boolean().optional() }),
  // `tied`: the programs the winner cannot be told apart from on validation (engine/search/ties.ts), with why.
  z.object({ type: z.literal('final'), t: z.number(), selection: z.string(), winner: NodeId, lcb: z.number(), validation: z.number(), tied: z.array(NodeId).max(50).optional(), tieNote: z.string().max(2000).optional() }),
]);

export type JournalEvent = z.infer<typeof EventSchema>;
/** An event as written: the time is filled in by the journal. */
export type NewEvent = JournalEvent extends infer E ? (E extends { t: number } ? Omit<E, 't'> : never) : never;

export interface JournalRead {
  events: JournalEvent[];
  /** The last line was cut off by a crash; it was dropped. */
  tornLine?: { line: number; text: string };
}

export function readJournal(path: string): JournalRead {
  const events: JournalEvent[] = [];
  let tornLine: JournalRead['tornLine'];
  const damaged = (line: number, why: string) => new Error(`${path}: line ${line} ${why}; the journal is damaged (it is only ever appended to)`);
  const read = readLines(path, JOURNAL_LIMITS, (line) => {
    // Only the last line can lack its newline: that is a write cut off by a kill, not damage.
    if ('tooLong' in line) {
      if (!line.terminated) tornLine = { line: line.number, text: `(${sizeText(line.bytes)} cut off)` };
      else throw damaged(line.number, `is ${sizeText(line.bytes)}, over the ${sizeText(JOURNAL_LIMITS.maxLineBytes)} a journal line may hold`);
      return;
    }
    if (line.text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.text);
    } catch {
      if (!line.terminated) {
        tornLine = { line: line.number, text: line.text.slice(0, 120) };
        return;
      }
      throw damaged(line.number, 'is not JSON');
    }
    const event = EventSchema.safeParse(parsed);
    if (!event.success) throw new Error(`${path}: line ${line.number} is not a journal event: ${z.prettifyError(event.error)}`);
    events.push(event.data);
  });
  if (read.kind === 'not-a-file') throw new Error(`${path} is not a file; a run's journal.jsonl is a plain file`);
  if (read.kind === 'read' && read.cut) throw new Error(`${path} is over ${sizeText(JOURNAL_LIMITS.maxFileBytes)}, more than any run writes; refusing to read it`);
  return tornLine ? { events, tornLine } : { events };
}

/** Cuts a torn last line off the file (reading only its tail), so the next event starts on a line of its own. */
function cutTornTail(path: string): void {
  let size: number;
  try {
    const st = lstatSync(path);
    if (!st.isFile()) throw new Error(`${path} is not a file; a run's journal.jsonl is a plain file`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (size === 0) return;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a file`);
    const buf = Buffer.alloc(64 * 1024);
    let end = size;
    let keep = -1;
    let lastByte = true;
    while (end > 0 && keep < 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      if (lastByte && buf[n - 1] === 10) return;
      lastByte = false;
      const nl = buf.subarray(0, n).lastIndexOf(10);
      if (nl >= 0) keep = start + nl + 1;
      end = start;
    }
    truncateSync(path, Math.max(keep, 0));
  } finally {
    closeSync(fd);
  }
}

export class Journal {
  private fd: number;

  constructor(readonly path: string) {
    cutTornTail(path);
    // Never through a link: the journal is the run's own file.
    this.fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  }

  /** Writes the event (credentials of any address in it hidden) and returns it as written. */
  append(event: NewEvent): JournalEvent {
    const full = { ...event, t: Date.now() } as JournalEvent;
    const text = JSON.stringify(full);
    const line = redactCredentials(text);
    writeSync(this.fd, `${line}\n`);
    fsyncSync(this.fd);
    return line === text ? full : (JSON.parse(line) as JournalEvent);
  }

  close(): void {
    closeSync(this.fd);
  }
}
