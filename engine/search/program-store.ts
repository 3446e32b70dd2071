// The run's programs: their files written into the run folder (a node's, or a try's), compiled once per session, and
// quick-examined wherever jobs run. It holds no search state: a node joins the tree only by its `node` line.
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { readProgramFiles, sourceHash } from '../../memo-programs/files.ts';
import { compileProgram, type CompiledProgram, formatIssue } from '../../sandbox/compile.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { examineByJob, examJob } from '../jobs/exam-job.ts';
import type { JobExecutor } from '../jobs/executor.ts';
import type { EnvRef } from '../jobs/job.ts';
import type { Edit, ProgramFiles, ProposalMode } from '../meta/types.ts';
import type { NewEvent } from './journal-events.ts';
import type { RunStore } from './run-store.ts';
import type { NodeKind } from './tree.ts';

/** Where a run's jobs go, and the run's name in their keys (a queue shared by several runs keeps them apart). */
export interface RunJobs {
  executor: JobExecutor;
  env: EnvRef;
  runId: string;
}

/** The run's id in job keys: its folder and creation time. */
export function runIdOf(store: RunStore): string {
  let created = '';
  try {
    created = store.read().createdAt;
  } catch {
    // A run folder without its description: the folder alone names it.
  }
  return createHash('sha256').update(`${store.dir}\0${created}`).digest('hex').slice(0, 12);
}

export type NodeLine = Extract<NewEvent, { type: 'node' }>;

/** What a new node is: its place in the tree and what the meta agent said of it. */
export interface NodeSpec {
  id: string;
  parent: string | null;
  kind: NodeKind;
  step: number;
  /** The parent's mean when the node was written (null for the root). */
  parentSnapshot: number | null;
  description?: string;
  edits?: Edit[];
  /** What chose a child's edit (the step line shows it). */
  mode?: ProposalMode;
}

export interface ExamSettings {
  /** Quick-examination tasks. */
  tasks: number;
  /** The isolate's random seed. */
  seed: number;
  signal?: AbortSignal;
}

export class ProgramStore {
  private readonly compiled = new Map<string, CompiledProgram>();

  constructor(
    readonly folder: RunStore,
    private readonly jobs: RunJobs,
    private readonly exam: ExamSettings,
  ) {}

  /** Writes a program's files as node `spec.id`'s and says its `node` line (compiled: its hash), not yet recorded. */
  async writeNode(spec: NodeSpec, files: ProgramFiles): Promise<NodeLine> {
    const { folder } = this;
    folder.writeProgram(spec.id, files);
    const dir = relative(folder.dir, folder.programDir(spec.id));
    const { hash } = await this.compile({ id: spec.id, dir });
    return {
      type: 'node',
      step: spec.step,
      id: spec.id,
      parent: spec.parent,
      kind: spec.kind,
      dir,
      hash,
      parentSnapshot: spec.parentSnapshot,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.edits?.length ? { edits: spec.edits } : {}),
      ...(spec.mode ? { mode: spec.mode } : {}),
    };
  }

  /** A node's compiled program (compiled once per session). */
  async compile(node: { id: string; dir: string }): Promise<CompiledProgram> {
    let c = this.compiled.get(node.id);
    if (!c) {
      const r = await compileProgram({ entryPath: join(this.folder.dir, node.dir, 'index.ts') });
      if (!r.ok) throw new Error(`program ${node.id} no longer compiles: ${r.issues.map(formatIssue).join('; ')}`);
      c = r.program;
      this.compiled.set(node.id, c);
    }
    return c;
  }

  /** A node's files as the run folder holds them. */
  files(node: { dir: string }): ProgramFiles {
    return readProgramFiles(join(this.folder.dir, node.dir));
  }

  /** A quick examination of the files in `dir` (the run folder's copy), wherever jobs run. */
  examine(files: ProgramFiles, dir: string): Promise<QuickExamReport> {
    const { runId, executor, env } = this.jobs;
    const key = `${runId}/exam/${relative(this.folder.dir, dir)}/${sourceHash(files).slice(0, 16)}`;
    return examineByJob(
      executor,
      examJob({ key, files, dir, env, tasks: this.exam.tasks, seed: this.exam.seed }),
      this.exam.signal,
    );
  }
}
