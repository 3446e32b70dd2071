// The append-only journal of a run (journal.jsonl). Every line is one event, written and fsync'd before the search
// moves on, so a kill at any moment loses at most the line being written. Reading tolerates exactly that: a torn
// last line is reported and dropped (and cut from the file before appending again); a bad line elsewhere means the
// file was damaged and is an error naming the line.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { z } from 'zod';

const Scored = z.object({ kind: z.enum(['evaluate', 'generate']), node: z.string(), score: z.number() });

export const EventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), t: z.number(), resumed: z.boolean(), pid: z.number() }),
  z.object({
    type: z.literal('node'),
    t: z.number(),
    step: z.number().int(),
    id: z.string(),
    parent: z.string().nullable(),
    kind: z.enum(['root', 'seed', 'child']),
    dir: z.string(),
    hash: z.string(),
    parentSnapshot: z.number().nullable(),
    description: z.string().optional(),
    edits: z.array(z.object({ path: z.string(), from: z.union([z.number(), z.boolean(), z.string()]), to: z.union([z.number(), z.boolean(), z.string()]) })).optional(),
  }),
  z.object({
    type: z.literal('evaluation'),
    t: z.number(),
    step: z.number().int(),
    node: z.string(),
    split: z.enum(['train', 'test']),
    index: z.number().int(),
    score: z.number(),
    tasks: z.number().int(),
    sampleSeed: z.number().int().optional(),
    evidence: z.string(),
    stats: z.record(z.string(), z.unknown()),
    ms: z.number(),
  }),
  z.object({ type: z.literal('action'), t: z.number(), step: z.number().int(), kind: z.enum(['evaluate', 'generate']), node: z.string(), score: z.number(), candidates: z.array(Scored) }),
  z.object({ type: z.literal('generation-failed'), t: z.number(), step: z.number().int(), parent: z.string(), reason: z.string(), attempts: z.number().int(), dir: z.string().optional() }),
  z.object({
    type: z.literal('meta-call'),
    t: z.number(),
    step: z.number().int(),
    node: z.string(),
    role: z.string(),
    purpose: z.string(),
    model: z.string(),
    promptTokens: z.number(),
    completionTokens: z.number(),
    usd: z.number().nullable(),
    ms: z.number(),
    ok: z.boolean(),
    error: z.string().optional(),
  }),
  z.object({ type: z.literal('quick-exam'), t: z.number(), step: z.number().int(), dir: z.string(), attempt: z.number().int(), passed: z.boolean(), failure: z.string().optional() }),
  z.object({ type: z.literal('step-done'), t: z.number(), step: z.number().int() }),
  z.object({ type: z.literal('stopped'), t: z.number(), step: z.number().int(), reason: z.string() }),
  z.object({ type: z.literal('final'), t: z.number(), selection: z.string(), winner: z.string(), lcb: z.number(), validation: z.number() }),
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
  if (!existsSync(path)) return { events: [] };
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const events: JournalEvent[] = [];
  let tornLine: JournalRead['tornLine'];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const last = i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      if (last && !text.endsWith('\n')) {
        tornLine = { line: i + 1, text: line.slice(0, 120) };
        return;
      }
      throw new Error(`${path}: line ${i + 1} is not JSON; the journal is damaged (it is only ever appended to)`);
    }
    const event = EventSchema.safeParse(parsed);
    if (!event.success) throw new Error(`${path}: line ${i + 1} is not a journal event: ${z.prettifyError(event.error)}`);
    events.push(event.data);
  });
  return tornLine ? { events, tornLine } : { events };
}

export class Journal {
  private fd: number;

  constructor(readonly path: string) {
    // A torn last line (from a kill mid-write) is cut off, so new events start on a line of their own.
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.length && !text.endsWith('\n')) truncateSync(path, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    }
    this.fd = openSync(path, 'a');
  }

  append(event: NewEvent): JournalEvent {
    const full = { ...event, t: Date.now() } as JournalEvent;
    writeSync(this.fd, `${JSON.stringify(full)}\n`);
    fsyncSync(this.fd);
    return full;
  }

  close(): void {
    closeSync(this.fd);
  }
}
