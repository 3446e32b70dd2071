// The static report: the viewer's page with everything it would ask the server for inlined — the run, every node's
// details, every evaluation's per-task outcomes (long texts clipped) and the images as data URIs, up to a cap so
// the file stays a size a browser and a mail attachment can take. The page says what was left out.
import { statSync } from 'node:fs';
import { readRegularFile } from '../foundation/small-file.ts';
import { extname } from 'node:path';
import { type EvidenceView, imageIds, readEvidence } from './evidence-view.ts';
import { type Explanation, type ExplanationFound, foundPart } from './task-explanation.ts';
import { type FailureDetail, type NodeDetail, readFailureDetail, readNodeDetail, readNoOpDetail } from './node-detail.ts';
import { inlinePage } from './page-assets.ts';
import { readRun, type RunView } from './run-model.ts';
import { insideRoot } from '../foundation/safe-path.ts';
import { keyedObject } from '../foundation/keyed-object.ts';

export interface ReportLimits {
  /** Payload text kept per task. */
  payloadChars: number;
  /** Action, observation and thought kept per step. */
  stepChars: number;
  /** Images larger than this are left out. */
  imageBytes: number;
  /** All images together. */
  totalImageBytes: number;
}

export const REPORT_LIMITS: ReportLimits = { payloadChars: 3000, stepChars: 800, imageBytes: 400_000, totalImageBytes: 12_000_000 };

type ReportTask = Omit<EvidenceView['tasks'][number], 'explanation'> & { explanation?: ExplanationFound };
export type ReportEvidence = Omit<EvidenceView, 'tasks'> & { tasks: ReportTask[] };

/** Everything the page needs, the shape the page reads from its data blob. */
export interface ReportBundle {
  generatedAt: string;
  run: RunView;
  nodes: Record<string, NodeDetail>;
  failures: Record<string, FailureDetail>;
  /** By the no-op's index among the run's no-ops. */
  noops: Record<string, FailureDetail>;
  /**
   * By evidence folder (relative to the run). A task's explanation is the same in every evaluation: it is kept once,
   * in `explanations`, and a task keeps only what its payload holds of it (the page joins them again).
   */
  evidence: Record<string, ReportEvidence>;
  /** Task id → its explanation. */
  explanations: Record<string, Explanation>;
  /** Image file (relative to the run) → data URI. */
  images: Record<string, string>;
  omittedImages: number;
  limits: ReportLimits;
}

const MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };

export function buildBundle(dir: string, limits: ReportLimits = REPORT_LIMITS): ReportBundle {
  const run = readRun(dir);
  const nodes = keyedObject<NodeDetail>();
  for (const n of run.nodes) nodes[n.id] = readNodeDetail(run, n.id) as NodeDetail;
  const failures = keyedObject<FailureDetail>();
  for (const f of run.failures) failures[String(f.step)] = readFailureDetail(run, f.step) as FailureDetail;
  const noops = keyedObject<FailureDetail>();
  for (const x of run.noops) noops[String(x.index)] = readNoOpDetail(run, x.index) as FailureDetail;
  const evidence = keyedObject<ReportEvidence>();
  const explanations = keyedObject<Explanation>();
  for (const n of run.nodes) {
    for (const e of n.evaluations) {
      const view = readEvidence(run.dir, e.evidence, limits);
      if (!view) continue;
      const tasks = view.tasks.map(({ explanation, ...t }): ReportTask => {
        if (!explanation) return t;
        const { goldFound: _g, evidenceFound: _e, marks: _m, ...shared } = explanation;
        explanations[t.taskId] ??= shared;
        return { ...t, explanation: foundPart(explanation) };
      });
      evidence[e.evidence] = { ...view, tasks };
    }
  }
  const { images, omitted } = inlineImages(run, evidence, limits);
  return { generatedAt: new Date().toISOString(), run, nodes, failures, noops, evidence, explanations, images, omittedImages: omitted, limits };
}

/** The referenced images as data URIs, the winner's evaluations first, until the caps are reached. */
function inlineImages(run: RunView, evidence: Record<string, ReportEvidence>, limits: ReportLimits): { images: Record<string, string>; omitted: number } {
  const order = [...run.nodes].sort((a, b) => Number(b.id === run.winner) - Number(a.id === run.winner));
  const images = keyedObject<string>();
  let total = 0;
  let omitted = 0;
  for (const node of order) {
    for (const e of node.evaluations) {
      const view = evidence[e.evidence];
      if (!view) continue;
      const files = new Set(view.tasks.flatMap(imageIds).map((id) => view.images[id]).filter((f): f is string => !!f));
      for (const file of files) {
        if (images[file]) continue;
        const full = insideRoot(run.dir, file);
        const mime = MIME[extname(file).toLowerCase()];
        // Only plain files: a pipe named like an image would block the read below.
        const st = full ? statSync(full) : undefined;
        const size = st?.isFile() ? st.size : Infinity;
        const encoded = Math.ceil(size / 3) * 4;
        if (!full || !mime || size > limits.imageBytes || total + encoded > limits.totalImageBytes) {
          omitted++;
          continue;
        }
        let bytes: Buffer;
        try {
          // Read as a plain file within the cap, whatever the folder became since the look above.
          bytes = readRegularFile(full, limits.imageBytes);
        } catch {
          omitted++;
          continue;
        }
        images[file] = `data:${mime};base64,${bytes.toString('base64')}`;
        total += encoded;
      }
    }
  }
  return { images, omitted };
}

/** The report as one HTML file. */
export function renderReport(dir: string, limits: ReportLimits = REPORT_LIMITS): { html: string; bundle: ReportBundle } {
  const bundle = buildBundle(dir, limits);
  return { html: inlinePage(bundle), bundle };
}
