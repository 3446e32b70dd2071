// What the node panel shows beyond the tree's numbers: the program's source files, the meta agent's meta.json
// (feedback and clusters), and the step that wrote it — its quick examinations and meta-model calls. A failed
// generation gets the same for its last attempt, a child that changed nothing (a no-op) for itself.
// A program folder may have been tampered with: only plain .ts files inside the run are shown, each up to a size,
// and meta.json is read only when it is a plain file of a sensible size.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSmallFile } from '../foundation/small-file.ts';
import { insideRoot } from '../foundation/safe-path.ts';
import type { JournalEvent } from '../engine/search/journal-events.ts';
import { readJournal } from '../run-store/journal.ts';
import { type MetaFile, readMetaFile } from '../engine/search/meta-file.ts';
import type { RunView } from './run-model.ts';
import { keyedObject } from '../foundation/keyed-object.ts';

/** A program file bigger than this is named, not shown; a folder shows at most MAX_FILES files. */
const MAX_FILE_BYTES = 1_000_000;
const MAX_FILES = 200;
const MAX_META_BYTES = 4_000_000;

/** CluE's clustering of the step's evidence: the pool after it, or the metadata groups and why. */
export interface ClusteringDetail {
  source: 'model' | 'metadata';
  notes: string[];
  clusters: { id: string; label: string; description: string; tasks: number }[];
  /** Tasks per group this step (cluster label, or metadata group). */
  groups: { group: string; tasks: string[] }[];
}

export interface StepDetail {
  clustering?: ClusteringDetail;
  quickExams: { dir: string; attempt: number; passed: boolean; failure?: string }[];
  metaCalls: {
    purpose: string;
    model: string;
    promptTokens: number;
    cachedTokens?: number;
    completionTokens: number;
    usd: number | null;
    ms: number;
    ok: boolean;
    error?: string;
    cut?: boolean;
    reused?: { step: number; node: string; purpose: string };
  }[];
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
  const files = keyedObject<string>();
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .slice(0, MAX_FILES);
  } catch {
    return {};
  }
  for (const name of names) {
    // Each file proven inside the run too: a link in the folder could point anywhere.
    const full = insideRoot(runDir, join(rel, name));
    if (!full) continue;
    try {
      const size = statSync(full).size;
      files[name] =
        size > MAX_FILE_BYTES
          ? `// ${name}: ${size} bytes, too large to show here (over ${MAX_FILE_BYTES})\n`
          : (readSmallFile(full, MAX_FILE_BYTES) ?? '');
    } catch (err) {
      files[name] = `// ${name} could not be read: ${(err as Error).message}\n`;
    }
  }
  return files;
}

/** Quick examinations and meta calls of one step (only steps above 0 write children). */
export function stepDetail(events: JournalEvent[], step: number): StepDetail {
  const out: StepDetail = { quickExams: [], metaCalls: [] };
  if (step <= 0) return out;
  for (const e of events) {
    if (e.type === 'clusters' && e.step === step) out.clustering = clusteringDetail(e);
    if (e.type === 'quick-exam' && e.step === step)
      out.quickExams.push({
        dir: e.dir,
        attempt: e.attempt,
        passed: e.passed,
        ...(e.failure ? { failure: `${e.failure.check}: ${e.failure.detail}` } : {}),
      });
    if (e.type === 'meta-call' && e.step === step) {
      const { type: _t, t: _time, step: _s, node: _n, role: _r, ...call } = e;
      out.metaCalls.push(call);
    }
  }
  return out;
}

function clusteringDetail(e: Extract<JournalEvent, { type: 'clusters' }>): ClusteringDetail {
  const label = new Map(e.clusters.map((c) => [c.id, c.label]));
  const groups = new Map<string, string[]>();
  for (const [task, group] of Object.entries(e.assignment)) {
    const name = label.get(group) ?? group;
    groups.set(name, [...(groups.get(name) ?? []), task]);
  }
  return {
    source: e.source,
    notes: e.notes,
    clusters: e.clusters,
    groups: [...groups.entries()].map(([group, tasks]) => ({ group, tasks })),
  };
}

export function readNodeDetail(run: RunView, id: string): NodeDetail | null {
  const node = run.nodes.find((n) => n.id === id);
  if (!node) return null;
  const { events } = readJournal(join(run.dir, 'journal.jsonl'));
  const detail: NodeDetail = {
    id,
    files: programAt(run.dir, node.dir),
    ...stepDetail(events, node.kind === 'child' ? node.step : 0),
  };
  const metaPath = insideRoot(run.dir, join(node.dir, 'meta.json'));
  try {
    // Checked for size and kind before the meta file's own reader takes it whole.
    if (metaPath) readSmallFile(metaPath, MAX_META_BYTES);
    const meta = metaPath ? readMetaFile(metaPath) : undefined;
    if (meta) detail.meta = meta;
  } catch (err) {
    detail.metaError = (err as Error).message;
  }
  return detail;
}

/** A no-op child's step (its quick examinations and meta calls) and its files, when its folder still holds them. */
export function readNoOpDetail(run: RunView, index: number): FailureDetail | null {
  const noop = run.noops.find((x) => x.index === index);
  if (!noop) return null;
  const { events } = readJournal(join(run.dir, 'journal.jsonl'));
  const detail: FailureDetail = { step: noop.step, ...stepDetail(events, noop.step) };
  if (noop.dir && noop.filesKept) detail.files = programAt(run.dir, noop.dir);
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
