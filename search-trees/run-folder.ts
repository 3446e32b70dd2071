// A run folder: run.json (what was asked, on what, with what), journal.jsonl (what happened), programs/<node>/
// (each program's files and its compiled bundle), evidence/<node>/<split>-<i>/ (per-evaluation evidence).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProgramFiles } from '../engine/meta/offline/config-edit.ts';
import type { MetaFile } from './meta-file.ts';

export const RUN_FORMAT = 'automemo-run/1';

export const RunOptionsSchema = z
  .object({
    env: z.string(),
    data: z.string().optional(),
    budget: z.number().int().min(0).max(10_000),
    seeds: z.array(z.string()),
    meta: z.enum(['model', 'offline']),
    seed: z.number().int(),
    maxUsd: z.number().positive().optional(),
    policy: z.string(),
    selection: z.enum(['lcb', 'max-mean']),
    evalFraction: z.number().gt(0).max(1),
    ucb: z.object({ cEval: z.number(), cGen: z.number(), lambda: z.number(), kappa: z.number(), minWidth: z.number().int(), seedsExpandable: z.boolean() }),
    repairAttempts: z.number().int().min(0).max(10),
    quickExamTasks: z.number().int().min(1),
    testWinner: z.boolean(),
  })
  .strict();
export type RunOptions = z.infer<typeof RunOptionsSchema>;

export const RunInfoSchema = z.object({
  format: z.literal(RUN_FORMAT),
  createdAt: z.string(),
  options: RunOptionsSchema,
  env: z.record(z.string(), z.unknown()),
  models: z.record(z.string(), z.string().nullable()),
  versions: z.record(z.string(), z.string()),
});
export type RunInfo = z.infer<typeof RunInfoSchema>;

/** Whether a process (say, the one holding a run's lock) still lives. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class RunFolder {
  constructor(readonly dir: string) {}

  get runJson(): string {
    return join(this.dir, 'run.json');
  }
  get journalPath(): string {
    return join(this.dir, 'journal.jsonl');
  }
  programDir(node: string): string {
    return join(this.dir, 'programs', node);
  }
  evidenceDir(node: string, split: string, index: number): string {
    return join(this.dir, 'evidence', node, `${split}-${index}`);
  }

  exists(): boolean {
    return existsSync(this.runJson);
  }

  create(info: RunInfo): void {
    if (this.exists()) throw new Error(`${this.dir} already holds a run; use --resume to continue it, or choose another --out`);
    mkdirSync(join(this.dir, 'programs'), { recursive: true });
    mkdirSync(join(this.dir, 'evidence'), { recursive: true });
    writeFileSync(this.runJson, `${JSON.stringify(info, null, 2)}\n`);
  }

  read(): RunInfo {
    if (!this.exists()) throw new Error(`${this.dir} has no run.json: not a run folder`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.runJson, 'utf8'));
    } catch (err) {
      throw new Error(`${this.runJson} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
    const parsed = RunInfoSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${this.runJson} is not a run description: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  get lockPath(): string {
    return join(this.dir, 'lock');
  }

  /**
   * Claims the folder for this process: a second search on the same run (say, a resume while the first still
   * runs) would interleave two journals. A lock left by a process that is gone is taken over.
   */
  lock(): () => void {
    mkdirSync(this.dir, { recursive: true });
    try {
      writeFileSync(this.lockPath, String(process.pid), { flag: 'wx' });
    } catch {
      const holder = Number(readFileSync(this.lockPath, 'utf8').trim());
      if (holder && holder !== process.pid && alive(holder)) {
        throw new Error(`${this.dir} is in use by process ${holder}; stop it first, or wait for it to finish`);
      }
      writeFileSync(this.lockPath, String(process.pid));
    }
    const release = () => {
      try {
        if (readFileSync(this.lockPath, 'utf8').trim() === String(process.pid)) rmSync(this.lockPath);
      } catch {
        // already gone
      }
    };
    process.once('exit', release);
    return release;
  }

  /** Writes what the meta agent said about a child (programs/<node>/meta.json; not a program file: only .ts are). */
  writeMeta(node: string, meta: MetaFile): void {
    const dir = this.programDir(node);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  }

  /** Writes a program's files (its entry is index.ts). */
  writeProgram(node: string, files: ProgramFiles): string {
    const dir = this.programDir(node);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }
}
