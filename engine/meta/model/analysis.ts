// Reading the parent's evidence into a proposal, when it is read apart from writing the child (the agent's `analysis`
// option; by default one call reads and writes, proposal-reply.ts). Per program: one call analyses every cluster and
// combines the findings into the proposal. Per cluster (the paper's way): one call per cluster, then a synthesis
// call when there are several. Both start every request with the same prefix — context, program and every cluster's
// evidence — so the analyses of a step differ only in their last lines.
import { z } from 'zod';
import { fillPrompt } from '../../../foundation/llm/prompt-file.ts';
import type { Cluster } from '../evidence.ts';
import type { FeedbackCluster, MetaFeedback, ModelParent } from '../types.ts';
import type { ModelCaller } from './calls.ts';
import { extractJson } from './extract.ts';
import { imageParts, type LabelledImage, withImages } from './image-parts.ts';
import { prompt } from './prompt-parts.ts';

/**
 * How a child is written: one call per child (every cluster analysed, the proposal and its edits in one reply), or
 * the evidence read first — one call per program covering its clusters, or one per cluster and a synthesis — and the
 * child written by a generation call.
 */
export const ANALYSIS_MODES = ['child', 'program', 'cluster'] as const;
export type AnalysisMode = (typeof ANALYSIS_MODES)[number];

// Model output is bounded where it is read: far above what a reply within its token limit holds.
const Text = z.string().max(20_000);
const Label = z.enum(['helpful', 'missing', 'irrelevant', 'redundant', 'misleading']);
const Relevance = z
  .array(z.object({ taskId: z.string().max(500), label: Label, why: Text.optional() }))
  .max(200)
  .default([]);
const Weaknesses = z.array(Text).max(100).default([]);
const Suggestions = z.array(z.object({ priority: z.number(), change: Text })).max(100);
const Analysis = z.object({ relevance: Relevance, weaknesses: Weaknesses, suggestions: Suggestions.min(1) });
const Changes = z
  .array(z.object({ change: Text, why: Text.optional(), clusters: z.array(z.string().max(500)).max(50).optional() }))
  .min(1)
  .max(50);
const Synthesis = z.object({ summary: Text, changes: Changes });
/** Every cluster's analysis and the proposal, in one object (a program's analysis; the first part of a child's call). */
export const ProgramAnalysis = z.object({
  clusters: z
    .array(
      z.object({
        cluster: z.string().max(500),
        relevance: Relevance,
        weaknesses: Weaknesses,
        suggestions: Suggestions.default([]),
      }),
    )
    .max(50)
    .default([]),
  summary: Text,
  changes: Changes,
});
type ClusterAnalysis = z.infer<typeof Analysis>;
export type ProgramAnalysis = z.infer<typeof ProgramAnalysis>;

/** What the evidence was read as: per cluster findings, the proposal to carry out, and its summary. */
export interface Reading {
  found: FeedbackCluster[];
  proposal: string;
  /** What the next version does differently, in a sentence or two (becomes the child's description). */
  summary: string;
  synthesis?: MetaFeedback['synthesis'];
}

const FOCUS_FIX =
  'Then name the structural weaknesses of the program that explain the failures, and suggest concrete code changes, most important first.';
const FOCUS_PROTECT =
  'This cluster has no failed task: under weaknesses, say what the program does that these tasks depend on (what the ' +
  'next version must protect); suggest only changes that cannot hurt it (keeping it as it is counts as a suggestion).';
/** Images one request carries at most, taken in turn from each cluster's cases. */
const MAX_REQUEST_IMAGES = 24;

/** A parser of a JSON reply of the given shape, whose errors say what to fix. */
export function jsonReply<T>(schema: z.ZodType<T>) {
  return (reply: string): T => {
    let raw: unknown;
    try {
      raw = extractJson(reply);
    } catch (err) {
      throw new Error(`not valid JSON (${(err as Error).message})`, { cause: err });
    }
    const r = schema.safeParse(raw);
    if (!r.success) throw new Error(`JSON does not match the requested shape: ${z.prettifyError(r.error)}`);
    return r.data;
  };
}

const proposalOf = (s: { summary: string; changes: { change: string; why?: string }[] }) =>
  `${s.summary}\n${s.changes.map((x, i) => `${i + 1}. ${x.change}${x.why ? ` (${x.why})` : ''}`).join('\n')}`;

function feedback(scenario: string, cluster: Cluster | undefined, analysis: ClusterAnalysis): FeedbackCluster {
  return {
    scenario,
    ...(cluster ? { tasks: cluster.tasks, meanReward: cluster.meanReward } : {}),
    summary: analysis.weaknesses.join('; ') || analysis.suggestions.map((x) => x.change).join('; '),
    analysis,
  };
}

/** One analysis per cluster, then (with several) one synthesis told what was tried. */
export async function readPerCluster(
  caller: ModelCaller,
  ctx: ModelParent,
  shared: string,
  groups: Cluster[],
  tried: () => string,
): Promise<Reading> {
  const analyses: { cluster: Cluster | undefined; scenario: string; analysis: ClusterAnalysis }[] = [];
  for (const cluster of groups.length ? groups : [undefined]) {
    const task = fillPrompt(prompt('analysis'), {
      scenario: cluster?.scenario ?? 'all',
      tasks: cluster ? String(cluster.tasks) : 'no',
      mean: cluster ? cluster.meanReward.toFixed(3) : '—',
      focus: cluster && cluster.failures.length === 0 ? FOCUS_PROTECT : FOCUS_FIX,
    });
    const analysis = await caller.ask(
      ctx,
      'analysis',
      withImages(`${shared}\n\n${task}`, cluster ? imageParts(cluster) : []),
      jsonReply(Analysis),
    );
    analyses.push({ cluster, scenario: cluster?.scenario ?? 'all', analysis });
  }
  const found = analyses.map((a) => feedback(a.scenario, a.cluster, a.analysis));
  if (analyses.length === 1) {
    const a = (analyses[0] as (typeof analyses)[number]).analysis;
    const changes = [...a.suggestions].sort((x, y) => x.priority - y.priority);
    const proposal = [...a.weaknesses.map((w) => `Weakness: ${w}`), ...changes.map((s) => `Change: ${s.change}`)].join(
      '\n',
    );
    return { found, proposal, summary: changes[0]?.change ?? a.weaknesses[0] ?? 'model proposal' };
  }
  const rendered = analyses
    .map(
      (a) =>
        `### ${a.scenario} (${a.cluster?.tasks ?? '?'} tasks, mean reward ${a.cluster?.meanReward.toFixed(3) ?? '?'})\n${JSON.stringify(a.analysis, null, 2)}`,
    )
    .join('\n\n');
  const s = await caller.ask(
    ctx,
    'synthesis',
    `${shared}\n\n${fillPrompt(prompt('synthesis'), { tried: tried(), analyses: rendered })}`,
    jsonReply(Synthesis),
  );
  return { found, proposal: proposalOf(s), summary: s.summary, synthesis: s };
}

/** The images of every cluster's cases, taken in turn from each cluster, at most MAX_REQUEST_IMAGES. */
export function allImages(groups: Cluster[]): LabelledImage[] {
  const lists = groups.map(imageParts);
  const out: LabelledImage[] = [];
  for (let i = 0; out.length < MAX_REQUEST_IMAGES && lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length && out.length < MAX_REQUEST_IMAGES) out.push(l[i] as LabelledImage);
  }
  return out;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The reading a program analysis gives: each cluster's findings (matched by name, or in order) and the proposal. */
export function readingOf(reply: ProgramAnalysis, groups: Cluster[]): Reading {
  const byName = new Map(reply.clusters.map((c) => [norm(c.cluster), c]));
  const found = groups.length
    ? groups.flatMap((g, i) => {
        const a =
          byName.get(norm(g.scenario)) ?? (reply.clusters.length === groups.length ? reply.clusters[i] : undefined);
        return a ? [feedback(g.scenario, g, a)] : [];
      })
    : reply.clusters.map((c) => feedback(c.cluster, undefined, c));
  const synthesis = { summary: reply.summary, changes: reply.changes };
  return { found, proposal: proposalOf(synthesis), summary: reply.summary, synthesis };
}

/** What a program analysis asks: every cluster read and the findings combined into a proposal. */
export const readingTask = () => prompt('reading');
export const analysisShape = () => prompt('analysis-shape');

/** One call: every cluster analysed and the findings combined into the proposal, told what was tried. */
export async function readPerProgram(
  caller: ModelCaller,
  ctx: ModelParent,
  shared: string,
  groups: Cluster[],
  tried: () => string,
): Promise<Reading> {
  const task = fillPrompt(prompt('analysis-program'), {
    reading: readingTask(),
    tried: tried(),
    shape: analysisShape(),
  });
  const reply = await caller.ask(
    ctx,
    'analysis',
    withImages(`${shared}\n\n${task}`, allImages(groups)),
    jsonReply(ProgramAnalysis),
  );
  return readingOf(reply, groups);
}
