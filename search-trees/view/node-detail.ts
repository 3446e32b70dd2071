// What the node panel shows beyond the tree's numbers: the program's source files, the meta agent's meta.json
// (feedback and clusters), and the step that wrote it — its quick examinations and meta-model calls. A failed
// generation gets the same for its last attempt.
import { join } from 'node:path';
import { readProgramFiles } from '../../memo-programs/files.ts';
import { type JournalEvent, readJournal } from '../journal.ts';
import { type MetaFile, readMetaFile } from '../meta-file.ts';
import type { RunView } from './run-model.ts';
import { insideRoot } from './safe-path.ts';

export interface StepDetail {
  quickExams: { dir: string; attempt: number; passed: boolean; failure?: string }[];
  metaCalls: { purpose: string; model: string; promptTokens: number; completionTokens: number; usd: number | null; ms: number; ok: boolean; error?: string }[];
}

export interface NodeDetail extends StepDetail {
  id: string;
  files: Record<string, string>;
  meta?: MetaFile;
  /** meta.json was there but could not be read. */
  metaError?: string;
}

export interface FailureDetail extends StepDetail {
  step: number;
  /** The last attempt's files, when it got as far as writing them. */
  files?: Record<string, string>;
}

/** The program files in a folder of the run (relative), or {} when it is gone or outside the run. */
function programAt(runDir: string, rel: string): Record<string, string> {
  const dir = insideRoot(runDir, rel);
  if (!dir) return {};
  try {
    return readProgramFiles(dir);
  } catch {
    return {};
  }
}

/** Quick examinations and meta calls of one step (only steps above 0 write children). */
export function stepDetail(events: JournalEvent[], step: number): StepDetail {
  const out: StepDetail = { quickExams: [], metaCalls: [] };
  if (step <= 0) return out;
  for (const e of events) {
    if (e.type === 'quick-exam' && e.step === step) out.quickExams.push({ dir: e.dir, attempt: e.attempt, passed: e.passed, ...(e.failure ? { failure: e.failure } : {}) });
    if (e.type === 'meta-call' && e.step === step) {
      const { type: _t, t: _time, step: _s, node: _n, role: _r, ...call } = e;
      out.metaCalls.push(call);
    }
  }
  return out;
}

export function readNodeDetail(run: RunView, id: string): NodeDetail | null {
  const node = run.nodes.find((n) => n.id === id);
  if (!node) return null;
  const { events } = readJournal(join(run.dir, 'journal.jsonl'));
  const detail: NodeDetail = { id, files: programAt(run.dir, node.dir), ...stepDetail(events, node.kind === 'child' ? node.step : 0) };
  const metaPath = insideRoot(run.dir, join(node.dir, 'meta.json'));
  try {
    const meta = metaPath ? readMetaFile(metaPath) : undefined;
    if (meta) detail.meta = meta;
  } catch (err) {
    detail.metaError = (err as Error).message;
  }
  return detail;
}

export function readFailureDetail(run: RunView, step: number): FailureDetail | null {
  const failure = run.failures.find((f) => f.step === step);
  if (!failure) return null;
  const { events } = readJournal(join(run.dir, 'journal.jsonl'));
  const detail: FailureDetail = { step, ...stepDetail(events, step) };
  if (failure.dir) detail.files = programAt(run.dir, failure.dir);
  return detail;
}
