// A run folder: run.json (what was asked, on what, with what), journal.jsonl (what happened), programs/<node>/
// (each program's files and its compiled bundle), evidence/<node>/<split>-<i>/ (per-evaluation evidence).
// Node ids are safe names and every path in the folder is proven inside it (foundation/safe-path.ts) before it is
// written: a seed's path, a journal line or a file name a model wrote can never make the run write elsewhere.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readSmallFile } from '../foundation/small-file.ts';
import {
  mkdirInside,
  PathOutsideError,
  resolveInside,
  SafeNameSchema,
  SafeRelPathSchema,
  writeInside,
} from '../foundation/safe-path.ts';
import type { ProgramFiles } from '../memo-programs/files.ts';
import { EnvSourceSchema } from '../engine/environment/registry.ts';
import { RunOptionsSchema } from '../engine/search/run-options.ts';
import type { MetaFile } from '../engine/search/meta-file.ts';
import type { RunStore } from '../engine/search/run-store.ts';
import { Journal, type JournalRead, readJournal } from './journal.ts';
import { markRun } from './run-trust.ts';
import { lockFolder } from './folder-lock.ts';
import { redactCredentials } from '../foundation/redact.ts';
import { isInside, repoRoot } from '../foundation/paths.ts';
import { packageVersion } from '../foundation/version.ts';

/**
 * The run folder's format, in run.json. A run of another format is refused (RunFolder.read): the formats before this
 * one were never released, and a version of automemo reads its own format only.
 */
export const RUN_FORMAT = 'automemo-run/2';

/** run.json is a few KB; a bigger one was not written by automemo. */
const MAX_RUN_JSON_BYTES = 1_000_000;

/**
 * Where a run goes unless told: search-trees/runs/<kind>-<time> under the working folder (under automemo's own folder
 * when working inside its checkout), never inside an installed automemo's node_modules folder.
 */
export function defaultRunFolder(kind: string, cwd = process.cwd()): string {
  const base = isInside(resolve(cwd), repoRoot) ? repoRoot : resolve(cwd);
  return join(base, 'search-trees', 'runs', `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
}

/** A node id as the run folder takes it: a safe name, else an error naming it. */
function nodeName(node: string): string {
  if (!SafeNameSchema.safeParse(node).success)
    throw new PathOutsideError(
      `"${node.slice(0, 200)}" is not a safe node id (letters, digits, ".", "_", "-"; at most 64)`,
    );
  return node;
}

export const RunInfoSchema = z.object({
  format: z.literal(RUN_FORMAT),
  createdAt: z.string(),
  options: RunOptionsSchema,
  env: z.record(z.string(), z.unknown()),
  /** What --env resolved to (a built-in, or a module with its path and fingerprint). */
  envSource: EnvSourceSchema,
  models: z.record(z.string(), z.string().nullable()),
  versions: z.record(z.string(), z.string()),
});
export type RunInfo = z.infer<typeof RunInfoSchema>;

export { alive } from './folder-lock.ts';

/** A run's folder on disk: the search's run store (engine/search/run-store.ts), and what the viewer and export read. */
export class RunFolder implements RunStore {
  /** Set by create() when the run could not be marked as this user's (run-trust.ts), saying why. */
  unmarked: string | undefined;

  constructor(readonly dir: string) {}

  /** A path inside the run folder, proven inside (no link leads out); a folder not made yet is taken as it will be. */
  private inside(rel: string): string {
    return existsSync(this.dir) ? resolveInside(this.dir, rel) : join(resolve(this.dir), rel);
  }

  get runJson(): string {
    return this.inside('run.json');
  }
  get journalPath(): string {
    return this.inside('journal.jsonl');
  }
  programDir(node: string): string {
    return this.inside(join('programs', nodeName(node)));
  }
  evidenceDir(node: string, split: string, index: number): string {
    return this.inside(join('evidence', nodeName(node), `${split}-${index}`));
  }

  exists(): boolean {
    return existsSync(this.runJson);
  }

  /**
   * Refuses a folder a new run cannot start in: one holding a run (resume it instead), a file, or a folder holding
   * anything but `allowed` — automemo never writes among a user's files.
   */
  checkNew(allowed: readonly string[] = []): void {
    const st = statSync(this.dir, { throwIfNoEntry: false });
    if (!st) return;
    if (!st.isDirectory()) throw new Error(`${this.dir} is not a folder: give a new or empty folder for the run`);
    if (this.exists())
      throw new Error(`${this.dir} already holds a run; use --resume to continue it, or choose another --out`);
    if (readdirSync(this.dir).some((name) => !allowed.includes(name))) {
      throw new Error(`${this.dir} exists and is not empty, and holds no run: choose another out folder, or empty it`);
    }
  }

  /**
   * Starts a new run here: the folder (missing or empty) is locked before anything else is written into it, so of
   * two searches started on it at once one runs and the other is refused; then run.json, and this user's mark of it
   * (run-trust.ts). Returns the lock's release.
   */
  create(info: RunInfo): () => void {
    this.checkNew();
    mkdirSync(this.dir, { recursive: true });
    const release = this.lock();
    try {
      // Another search may have taken the folder between the look above and the lock.
      this.checkNew(['lock']);
      mkdirInside(this.dir, 'programs');
      mkdirInside(this.dir, 'evidence');
      writeInside(this.dir, 'run.json', `${redactCredentials(JSON.stringify(info, null, 2))}\n`, 'exclusive');
      // This user's mark: --resume and export run the code this run names without asking.
      this.unmarked = markRun(this.dir);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  read(): RunInfo {
    if (!this.exists()) throw new Error(`${this.dir} has no run.json: not a run folder`);
    let raw: unknown;
    try {
      raw = JSON.parse(readSmallFile(this.runJson, MAX_RUN_JSON_BYTES) ?? '');
    } catch (err) {
      throw new Error(`${this.runJson} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
    refuseOtherFormat(this.runJson, raw);
    const parsed = RunInfoSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${this.runJson} is not a run description: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  get lockPath(): string {
    return this.inside('lock');
  }

  /**
   * Claims the folder for this process: a second search on the same run (say, a resume while the first still
   * runs) would interleave two journals. A lock left by a process that is gone is taken over.
   */
  lock(): () => void {
    return lockFolder(this.dir, 'search');
  }

  /** The journal's events so far (a torn last line dropped, and said). */
  readJournal(): JournalRead {
    return readJournal(this.journalPath);
  }

  /** Opens the journal for appending: a torn last line is cut off first, and every event is fsync'd. */
  openJournal(): Journal {
    return new Journal(this.journalPath);
  }

  /** Writes what the meta agent said about a child (programs/<node>/meta.json; not a program file: only .ts are). */
  writeMeta(node: string, meta: MetaFile): void {
    writeInside(this.dir, join('programs', nodeName(node), 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  }

  /**
   * Writes a program's files (its entry is index.ts). File names come from a model's reply: each must be a safe
   * relative path ending in .ts, or nothing is written.
   */
  writeProgram(node: string, files: ProgramFiles): string {
    const rel = join('programs', nodeName(node));
    const bad = Object.keys(files).filter((name) => !isProgramFileName(name));
    if (bad.length)
      throw new PathOutsideError(
        `program ${node}: ${bad.map((b) => JSON.stringify(b.slice(0, 100))).join(', ')} ${bad.length === 1 ? 'is not a' : 'are not'} safe file name${bad.length === 1 ? '' : 's'} (a relative path of safe names ending in .ts)`,
      );
    const dir = mkdirInside(this.dir, rel);
    for (const [name, text] of Object.entries(files)) writeInside(this.dir, join(rel, name), text);
    return dir;
  }

  /**
   * Moves a program's folder to a free name beside it (`to`, else `to-2`, …): a try written at the child's own name
   * that did not become the child keeps its files when the child is written there.
   */
  moveProgram(from: string, to: string): string {
    const source = this.programDir(from);
    let target = this.programDir(to);
    for (let n = 2; existsSync(target); n++) target = this.programDir(`${to}-${n}`);
    renameSync(source, target);
    return target;
  }
}

/** A run.json of another format: which format and which automemo wrote it, and that this one cannot take it up. */
function refuseOtherFormat(path: string, raw: unknown): void {
  if (typeof raw !== 'object' || raw === null) return;
  const { format, versions } = raw as { format?: unknown; versions?: { automemo?: unknown } };
  if (format === RUN_FORMAT || typeof format !== 'string') return;
  const by =
    typeof versions?.automemo === 'string'
      ? `automemo ${versions.automemo.slice(0, 40)}`
      : 'an automemo that did not say its version';
  throw new Error(
    `${path} is a run of format "${format.slice(0, 40)}", written by ${by}; this automemo (${packageVersion()}) reads "${RUN_FORMAT}" runs only, so it cannot resume, view, report or export this one: use the automemo that wrote it`,
  );
}

/** A program file's name as a run folder stores it: a safe relative path ending in .ts. */
export function isProgramFileName(name: string): boolean {
  return name.endsWith('.ts') && SafeRelPathSchema.safeParse(name).success;
}
