// Evidence of one evaluation, written as it happens so an interrupted run keeps what it finished:
//   tasks.jsonl   one line per task: the record, the task's question (its instruction, up to QUESTION_CHARS), the
//                 environment's explanation of it (`explain`, typed: gold answers, choices, evidence; keptExplanation), the
//                 payload the agent got, the trajectory
//   worlds.jsonl  one line per world: update timings and errors, primitive usage
//   summary.json  the result without per-task lines, written at the end
//   images/       the images a task showed or produced (task images, zoom crops, payload images), one file per
//                 id; lines refer to them by id and list their paths in `trajectory.files`, never inline them
// A line is at most EVIDENCE_LIMITS.maxLineBytes (8 MiB): a bigger task line is written without its payload and
// trajectory, saying so. Reading (readEvidenceLines, for the search and the viewer) is bounded the same way and never
// holds a file whole: a line over the cap, a line that is not JSON or not a record is counted unreadable with its
// reason, and a file over EVIDENCE_LIMITS.maxFileBytes (256 MiB) is read up to the cap and reported.
import { constants } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { type LineLimits, readLines, sizeText } from '../../foundation/bounded-lines.ts';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { TaskOutcome } from '../environment/contract.ts';
import type { Explanation } from '../environment/explanation.ts';
import type { EvaluationResult, TaskRecord, WorldRecord } from './records.ts';
import { redactCredentials } from '../../foundation/redact.ts';

export const EVIDENCE_LIMITS: LineLimits = { maxLineBytes: 8 * 2 ** 20, maxFileBytes: 256 * 2 ** 20 };
/** A task's question (its instruction) is kept up to this many characters, for readers of the evidence. */
export const QUESTION_CHARS = 2000;

/** A question as evidence keeps it: whole up to QUESTION_CHARS, else cut there, saying how much was left out. */
export function clipQuestion(q: string): string {
  return q.length > QUESTION_CHARS
    ? `${q.slice(0, QUESTION_CHARS)} … [${q.length - QUESTION_CHARS} more characters]`
    : q;
}

/** Items of each list of an explanation evidence keeps, and characters of each item (a reader wants the gist). */
export const EXPLAIN_ITEMS = 24;
export const EXPLAIN_ITEM_CHARS = 600;

const clipItem = (t: string) =>
  t.length > EXPLAIN_ITEM_CHARS
    ? `${t.slice(0, EXPLAIN_ITEM_CHARS)} … [${t.length - EXPLAIN_ITEM_CHARS} more characters]`
    : t;

/**
 * What the environment says the answer to a task is (`explain`), as evidence keeps it: the typed explanation with
 * each list cut to EXPLAIN_ITEMS items of EXPLAIN_ITEM_CHARS; undefined when the environment has none. A failing
 * explain (a module's own code) is named in a note, never raised.
 */
export function keptExplanation(
  env: { explain?(taskId: string): Explanation | undefined },
  taskId: string,
): Explanation | undefined {
  let e: Explanation | undefined;
  try {
    e = env.explain?.(taskId);
  } catch (err) {
    return { gold: [], notes: [`explain failed: ${String((err as Error)?.message ?? err).slice(0, 300)}`] };
  }
  if (!e) return undefined;
  const list = <T>(xs: readonly T[] | undefined, f: (x: T) => T) => xs?.slice(0, EXPLAIN_ITEMS).map(f);
  const choices = list(e.choices, (c) => ({ ...c, text: clipItem(c.text) }));
  const evidence = list(e.evidence, (r) => ({ ...r, ...(r.text !== undefined ? { text: clipItem(r.text) } : {}) }));
  const notes = list(e.notes, clipItem);
  return {
    ...(e.question !== undefined ? { question: clipQuestion(e.question) } : {}),
    ...(e.scenario !== undefined ? { scenario: e.scenario.slice(0, 500) } : {}),
    gold: e.gold.slice(0, EXPLAIN_ITEMS).map(clipItem),
    ...(choices ? { choices } : {}),
    ...(evidence ? { evidence } : {}),
    ...(notes ? { notes } : {}),
  };
}

/** summary.json holds statistics and per-world records, never tasks: far below this. */
export const SUMMARY_MAX_BYTES = 64 * 2 ** 20;

// Appends and writes never follow a link planted where an evidence file goes.
export const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;
const REPLACE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** The JSON of a line, or undefined when it cannot be one within the cap (too big, or not serialisable at all). */
function lineWithin(value: unknown, maxBytes: number): string | undefined {
  try {
    const text = redactCredentials(JSON.stringify(value));
    return Buffer.byteLength(text) <= maxBytes ? text : undefined;
  } catch {
    return undefined;
  }
}

export class EvidenceWriter {
  private ready: Promise<void>;

  private readonly written = new Set<string>();

  /** `images`: the host's store, to write referenced images as files (without it, lines keep the ids only). */
  constructor(
    readonly dir: string,
    private readonly images?: ImageStore,
  ) {
    this.ready = mkdir(dir, { recursive: true }).then(() => undefined);
    // Awaited by every write; an evaluation that fails before its first write (its folder removed meanwhile) must not
    // leave the rejection unhandled.
    this.ready.catch(() => undefined);
  }

  /** Writes each image once; returns the relative paths of those the store knows. */
  private async imageFiles(ids: string[]): Promise<string[]> {
    const store = this.images;
    if (!store || ids.length === 0) return [];
    const files: string[] = [];
    for (const id of [...new Set(ids)]) {
      if (!store.has(id)) continue;
      const img = store.get(id);
      const ext = img.ref.mime === 'image/jpeg' ? 'jpg' : img.ref.mime === 'image/webp' ? 'webp' : 'png';
      const file = join('images', `${id}.${ext}`);
      if (!this.written.has(id)) {
        this.written.add(id);
        await mkdir(join(this.dir, 'images'), { recursive: true });
        await writeFile(join(this.dir, file), img.bytes, { flag: REPLACE });
      }
      files.push(file);
    }
    return files;
  }

  /**
   * `question`: what the task asked (its instruction), kept so a reader of the evidence sees it beside the answer;
   * `explain`: the environment's explanation of it (keptExplanation), so a reader sees why it scored what it did
   * without the environment's data.
   */
  async task(
    record: TaskRecord,
    payload: MemoryPayload,
    outcome: TaskOutcome | undefined,
    question?: string,
    explain?: Explanation,
  ): Promise<void> {
    await this.ready;
    const t = outcome?.trajectory;
    const ids = [
      ...payload.images.map((i) => i.id),
      ...(t?.images ?? []),
      ...(t?.steps.flatMap((s) => s.images ?? []) ?? []),
    ];
    const files = await this.imageFiles(ids);
    const asked = {
      ...(typeof question === 'string' ? { question: clipQuestion(question) } : {}),
      ...(explain ? { explain } : {}),
    };
    const line = {
      ...record,
      ...asked,
      payload: {
        text: payload.text,
        images: payload.images.map((i) => i.id),
        ...(payload.metadata !== undefined ? { metadata: payload.metadata } : {}),
      },
      ...(t
        ? { trajectory: { ...t, ...(files.length ? { files: [...new Set([...(t.files ?? []), ...files])] } : {}) } }
        : {}),
    };
    const cut = () => ({
      ...record,
      ...asked,
      payload: { text: payload.text.slice(0, 100_000), images: payload.images.map((i) => i.id) },
      note: [
        record.note,
        `evidence line over ${sizeText(EVIDENCE_LIMITS.maxLineBytes)}: payload cut to 100,000 characters, metadata and trajectory left out`,
      ]
        .filter(Boolean)
        .join('; '),
    });
    const text =
      lineWithin(line, EVIDENCE_LIMITS.maxLineBytes) ??
      lineWithin(cut(), EVIDENCE_LIMITS.maxLineBytes) ??
      JSON.stringify({ taskId: record.taskId, reward: record.reward, note: 'evidence line too large to keep' });
    await appendFile(join(this.dir, 'tasks.jsonl'), `${text}\n`, { flag: APPEND });
  }

  async world(record: WorldRecord): Promise<void> {
    await this.ready;
    const text =
      lineWithin(record, EVIDENCE_LIMITS.maxLineBytes) ??
      JSON.stringify({ world: record.world, note: 'evidence line too large to keep' });
    await appendFile(join(this.dir, 'worlds.jsonl'), `${text}\n`, { flag: APPEND });
  }

  async summary(result: EvaluationResult): Promise<string> {
    await this.ready;
    const { tasks: _tasks, ...rest } = result;
    const file = join(this.dir, 'summary.json');
    await writeFile(file, `${redactCredentials(JSON.stringify(rest, null, 2))}\n`, { flag: REPLACE });
    return file;
  }
}

/** What the search reads back of a task line: its id, the payload's text, the agent's steps; other fields kept as they are. */
const ImageIds = z.array(z.string()).max(1000).optional();
export const TaskEvidenceSchema = z.looseObject({
  taskId: z.string(),
  // What the task asked; a line whose question is not a string keeps its record.
  question: z.string().optional().catch(undefined),
  payload: z.looseObject({ text: z.string(), images: ImageIds }).optional(),
  trajectory: z
    .looseObject({
      steps: z.array(z.looseObject({ action: z.string(), observation: z.string().optional(), images: ImageIds })),
      images: ImageIds,
      files: z.array(z.string()).max(4000).optional(),
    })
    .optional(),
});

/** The usable records of an evidence file, and what could not be used. */
export interface EvidenceLines<T> {
  records: T[];
  /** Lines that could not be used: too long, not JSON, not a record of this file (a line being written counts). */
  unreadable: number;
  /** Why, in words: one entry per unreadable line (the first few), and any problem with the file itself. */
  problems: string[];
}

const MAX_PROBLEMS = 10;

/**
 * Reads an evidence file (tasks.jsonl, worlds.jsonl) line by line within EVIDENCE_LIMITS, keeping the lines that
 * match `schema`. A missing file has no records and no problem (an evaluation that wrote no task has none).
 */
export function readEvidenceLines<T>(
  path: string,
  schema: z.ZodType<T>,
  limits: LineLimits = EVIDENCE_LIMITS,
): EvidenceLines<T> {
  const name = basename(path);
  const out: EvidenceLines<T> = { records: [], unreadable: 0, problems: [] };
  const bad = (line: number, why: string) => {
    out.unreadable++;
    if (out.unreadable <= MAX_PROBLEMS) out.problems.push(`${name} line ${line}: ${why}`);
  };
  let read;
  try {
    read = readLines(path, limits, (line) => {
      if ('tooLong' in line)
        return bad(line.number, `${sizeText(line.bytes)}, over the ${sizeText(limits.maxLineBytes)} a line may hold`);
      if (line.text.trim() === '') return;
      let raw: unknown;
      try {
        raw = JSON.parse(line.text);
      } catch {
        return bad(line.number, line.terminated ? 'not JSON' : 'not finished (being written, or cut off)');
      }
      const parsed = schema.safeParse(raw);
      if (parsed.success) out.records.push(parsed.data);
      else
        bad(
          line.number,
          `not a record of this file (${z.prettifyError(parsed.error).split('\n').slice(0, 2).join(' ').slice(0, 200)})`,
        );
    });
  } catch (err) {
    out.problems.push(`${name} could not be read: ${(err as Error).message}`);
    return out;
  }
  if (out.unreadable > MAX_PROBLEMS)
    out.problems.push(`${name}: ${out.unreadable - MAX_PROBLEMS} more unreadable lines`);
  if (read.kind === 'not-a-file') out.problems.push(`${name} is not a file`);
  if (read.kind === 'read' && read.cut)
    out.problems.push(
      `${name} is over ${sizeText(limits.maxFileBytes)}: only its first ${sizeText(limits.maxFileBytes)} were read`,
    );
  return out;
}
