// The offline meta agent: deterministic for a given (search seed, step, parent, attempt). A child of the no-memory
// root is one of the known designs (the baselines and seeds), as an offline "initialization"; any other child is
// its parent with one or two settings of its exported config moved in the direction the diagnosis points — more
// recall when payloads are empty or the budget unused, smaller payloads when they are cut or slow — or, to
// explore, a nearby value, a flipped switch, or another alternative of a string union. A pipeline program (an
// exported `stages` array of automemo/lib/pipeline stages) is edited in its structure instead (structural.ts): stages
// added, removed, swapped, tuned, routed to a failing kind of task, or taken from another good node.
import { readProgramFiles } from '../../../memo-programs/files.ts';
import { PROGRAMS } from '../../../memo-programs/registry.ts';
import { seededRandom } from '../../random.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { EvaluationResult } from '../../evaluate/evaluate.ts';
import {
  type Edit,
  type EditOutcome,
  type FeedbackCluster,
  type MetaAgent,
  MetaAgentError,
  type OfflineParent,
  type Proposal,
  sameEdits,
} from '../types.ts';
import { type ConfigLeaf, configLeaves, editConfig, materializeConfig } from './config-edit.ts';
import { diagnose, type Direction, type Finding } from './diagnose.ts';
import { formOf, pipelineIn } from './designs.ts';
import { type Reading, readEvidence } from './reading.ts';
import { readPipeline } from './stage-edit.ts';
import { structuralEdit } from './structural.ts';

type Effect = 'up-gives-more' | 'down-gives-more' | 'neutral';

/** How often a pipeline program that also exports a config gets a structural edit rather than a config edit. */
const STRUCTURAL_SHARE = 0.8;

/** How a setting's name suggests it moves recall: counts, sizes and limits up; thresholds and minimums down. */
export function effectOf(path: string): Effect {
  const name = (path.split('.').pop() ?? path).toLowerCase();
  if (/^(max|top)|(k|count|limit|window|units|expanded|neighbors|seeds|hops|steps|items|chars|budget|records|traces)$/.test(name)) return 'up-gives-more';
  if (/threshold|similarity|^min|reject|cutoff/.test(name)) return 'down-gives-more';
  return 'neutral';
}

function pick<T>(items: T[], weights: number[], random: () => number): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i] as number;
    if (r <= 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** A new value for a leaf, moved `up` or down; undefined when it cannot move that way. */
function moved(leaf: ConfigLeaf, up: boolean, random: () => number): number | boolean | string | undefined {
  if (leaf.kind === 'boolean') return !leaf.value;
  if (leaf.kind === 'string') return leaf.alternatives.length ? leaf.alternatives[Math.floor(random() * leaf.alternatives.length)] : undefined;
  const v = leaf.value as number;
  if (Number.isInteger(v) && Math.abs(v) >= 1) {
    const delta = Math.max(1, Math.round(Math.abs(v) * (0.25 + 0.5 * random())));
    const next = up ? v + delta : Math.max(v >= 1 ? 1 : 0, v - delta);
    return next === v ? undefined : next;
  }
  if (v >= 0 && v <= 1) {
    const next = round(Math.min(1, Math.max(0, v + (up ? 1 : -1) * (0.05 + 0.15 * random()))), 3);
    return next === v ? undefined : next;
  }
  const factor = 1.2 + 0.8 * random();
  return round(up ? v * factor : v / factor, 4);
}

interface LeafHistory {
  tries: number;
  /** Tries whose child scored exactly its parent's score on the same tasks: the setting did nothing here. */
  inert: number;
  up: number[];
  down: number[];
}

/** What moving each setting did so far, from the tree's history of config edits and paired score deltas. */
function learn(history: EditOutcome[]): Map<string, LeafHistory> {
  const out = new Map<string, LeafHistory>();
  for (const h of history) {
    for (const e of h.edits) {
      if (e.kind !== 'config') continue;
      let s = out.get(e.key);
      if (!s) out.set(e.key, (s = { tries: 0, inert: 0, up: [], down: [] }));
      s.tries++;
      if (Math.abs(h.delta) < 1e-9) s.inert++;
      const up = typeof e.to === 'number' && typeof e.from === 'number' ? e.to > e.from : true;
      (up ? s.up : s.down).push(h.delta);
    }
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);

/** How much a leaf deserves to be moved next, and which way history says to move it (if it says anything). */
function assess(leaf: ConfigLeaf, h: LeafHistory | undefined): { weight: number; prefer?: boolean } {
  const effect = effectOf(leaf.path);
  const weight = leaf.kind === 'number' ? (effect === 'neutral' ? 1 : 1.5) : 0.4;
  if (!h) return { weight };
  if (h.inert === h.tries) return { weight: weight * 0.05 };
  const up = mean(h.up);
  const down = mean(h.down);
  const best = Math.max(up ?? -Infinity, down ?? -Infinity);
  if (best > 1e-9) return { weight: weight * (2 + 20 * best), prefer: (up ?? -Infinity) >= (down ?? -Infinity) };
  // Every try hurt: try the other way if it is untried, else leave it mostly alone.
  if (up === undefined) return { weight: weight * 0.7, prefer: true };
  if (down === undefined) return { weight: weight * 0.7, prefer: false };
  return { weight: weight * 0.2 };
}

function editsFor(leaves: ConfigLeaf[], direction: Direction, count: number, random: () => number, history: Map<string, LeafHistory>, tried: Set<string> = new Set()): Record<string, number | boolean | string> {
  const values: Record<string, number | boolean | string> = {};
  // Settings this parent's children moved already are left for other parents: the next child moves another.
  const fresh = leaves.filter((l) => !tried.has(l.path));
  const pool = (fresh.length ? fresh : leaves).filter((l) => direction === 'explore' || (l.kind === 'number' && effectOf(l.path) !== 'neutral'));
  const assessed = pool.map((l) => ({ leaf: l, ...assess(l, history.get(l.path)) }));
  for (let tries = 0; Object.keys(values).length < count && tries < 30 && assessed.length; tries++) {
    const { leaf, prefer } = pick(assessed, assessed.map((x) => x.weight), random);
    if (leaf.path in values) continue;
    const e = effectOf(leaf.path);
    const up = prefer ?? (direction === 'explore' ? random() < 0.5 : (direction === 'more') === (e === 'up-gives-more'));
    const next = moved(leaf, up, random);
    if (next !== undefined && next !== leaf.value) values[leaf.path] = next;
  }
  return values;
}

export class OfflineMetaAgent implements MetaAgent<'offline'> {
  readonly mode = 'offline' as const;
  readonly reads = ['offline'] as const;

  async propose(ctx: OfflineParent): Promise<Proposal> {
    return this.make(ctx, 0);
  }

  async repair(_child: Proposal, _report: QuickExamReport, ctx: OfflineParent, attempt: number): Promise<Proposal | null> {
    // A different edit of the same parent: the offline agent cannot read a compiler error, but it can step aside.
    return this.make(ctx, attempt);
  }

  private make(ctx: OfflineParent, attempt: number): Proposal {
    const random = seededRandom(ctx.seed, ctx.step, ctx.node, attempt);
    const base = materializeConfig(ctx.files);
    const leaves = configLeaves(base).filter((l) => usableLeaf(l.path, ctx));
    const pipeline = readPipeline(ctx.files) !== undefined;
    if (leaves.length === 0 && !pipeline) return this.initialize(ctx, random);
    const findings = diagnose(ctx.evaluation, ctx.env.budget.maxChars);
    const reading = readEvidence(ctx);
    // A design that is not a pipeline is crossed into one first: the pipeline's stages, that design's way of finding.
    if (!pipeline) {
      const translated = this.translate(ctx, reading, attempt, findings);
      if (translated) return translated;
    }
    // A pipeline is edited in its structure; its exported config, if it has one, now and then.
    if (pipeline && (leaves.length === 0 || random() < STRUCTURAL_SHARE)) {
      const proposal = this.restructure(ctx, reading, attempt, findings);
      if (proposal) return proposal;
      if (leaves.length === 0) throw new MetaAgentError(`no structural edit of ${ctx.node}'s pipeline is left to try`);
    }
    const finding = pick<Finding>(findings, findings.map((f) => f.weight), random);
    const count = random() < 0.3 ? 2 : 1;
    const learned = learn(ctx.history ?? []);
    const values = editsFor(leaves, finding.direction, count, random, learned, triedPaths(ctx));
    if (Object.keys(values).length === 0) {
      const fallback = editsFor(leaves, 'explore', 1, random, learned, triedPaths(ctx));
      if (Object.keys(fallback).length === 0) throw new MetaAgentError(`no setting of ${ctx.node}'s config could be moved`);
      Object.assign(values, fallback);
    }
    const before = Object.fromEntries(leaves.map((l) => [l.path, l.value]));
    const edits = Object.entries(values).map(([key, to]): Edit => ({
      kind: 'config',
      key,
      from: before[key] as number | boolean | string,
      to,
    }));
    const changes = edits.map((e) => `${e.key} ${JSON.stringify(e.from)} → ${JSON.stringify(e.to)}`);
    const description = `${finding.rule} (${finding.detail}): ${changes.join('; ')}`;
    const feedback = { agent: 'offline' as const, clusters: clustersOf(ctx.evaluation, findings), proposal: description, findings, chosen: finding.rule };
    return { files: editConfig(base, values), description, edits, feedback };
  }

  /**
   * The parent's design as a pipeline (designs.ts); where the tree has that pipeline already (translated from an
   * ancestor or a sibling), that pipeline with one structural edit, chosen by this parent's evidence.
   */
  private translate(ctx: OfflineParent, reading: Reading, attempt: number, findings: Finding[]): Proposal | undefined {
    const form = formOf(ctx.design);
    if (!form) return undefined;
    const design = ctx.design as string;
    const files = pipelineIn(form);
    const base = `crossover into a pipeline: ${design}'s way of finding units (${form.keeps}) with automemo/lib's stages`;
    const into: Edit = { kind: 'design-into-pipeline', key: design, from: design, to: 'pipeline' };
    const feedback = (description: string) => ({ agent: 'offline' as const, clusters: clustersOf(ctx.evaluation, findings), proposal: description, findings, chosen: 'crossover into a pipeline' });
    const tried = ctx.tried ?? [];
    if (!ctx.inTree?.(files) && !tried.some((t) => sameEdits(t.edits, [into])))
      return { files, description: base, edits: [into], feedback: feedback(base) };
    const random = seededRandom(ctx.seed, ctx.step, ctx.node, attempt, 'translated', tried.length);
    // Children that were this crossover and then an edit: what was tried from the pipeline, by that edit.
    const tries = tried
      .filter((t) => t.edits.length > 1 && sameEdits(t.edits.slice(0, 1), [into]))
      .map((t) => ({ ...t, edits: t.edits.slice(1) }));
    const edit = structuralEdit({ ...ctx, files, tried: tries }, reading, random);
    if (!edit) return undefined;
    const description = `${base}, then ${edit.edits[0]?.kind}: ${edit.what} (${edit.why})`;
    // The crossover first: a tail on it is the same idea tried again (the viewer groups them by it).
    return { files: edit.files, description, edits: [into, ...edit.edits], feedback: feedback(description) };
  }

  /** A structural edit of a pipeline, chosen by what the benchmark's evidence shows. */
  private restructure(ctx: OfflineParent, reading: Reading, attempt: number, findings: Finding[]): Proposal | undefined {
    // Tries after a no-op (the tried list grew) draw differently, so the step does not write the same child again.
    const random = seededRandom(ctx.seed, ctx.step, ctx.node, attempt, 'structure', ctx.tried?.length ?? 0);
    const edit = structuralEdit(ctx, reading, random);
    if (!edit) return undefined;
    const kind = edit.edits[0]?.kind;
    const description = `${kind}: ${edit.what} (${edit.why})`;
    const feedback = {
      agent: 'offline' as const,
      clusters: clustersOf(ctx.evaluation, findings),
      proposal: description,
      findings,
      chosen: `structural ${kind}`,
    };
    return { files: edit.files, description, edits: edit.edits, feedback };
  }

  /**
   * A child of a program without settings (the no-memory root): one of the known designs not in the tree yet (the
   * donors are what it has, the screened designs included), else the pipeline form of the best donor's design.
   */
  private initialize(ctx: OfflineParent, random: () => number): Proposal {
    const present = new Set((ctx.donors ?? []).map((d) => d.design).filter(Boolean));
    // The root's children so far, by the design each started (as itself or as a pipeline).
    const started = (ctx.tried ?? []).flatMap((t) => t.edits.filter((e) => e.kind === 'initial-design'));
    const fresh = PROGRAMS.filter((p) => p.name !== 'no-memory' && !present.has(p.name));
    const untried = fresh.filter((p) => !started.some((e) => e.key === p.name));
    if (untried.length || !ctx.donors?.length) {
      const pool = untried.length ? untried : PROGRAMS.filter((p) => p.name !== 'no-memory');
      const design = pool[Math.floor(random() * pool.length)] as (typeof pool)[number];
      const description = `initial design: ${design.name} (${design.description})`;
      const edits: Edit[] = [{ kind: 'initial-design', key: design.name, from: '', to: design.name }];
      return {
        files: readProgramFiles(design.path),
        description,
        edits,
        feedback: { agent: 'offline', clusters: [], proposal: description },
      };
    }
    const best = ctx.donors.find((d) => formOf(d.design) && !readPipeline(d.files));
    const form = formOf(best?.design);
    if (!best || !form) throw new MetaAgentError('every standard design is in the tree already, and none has a pipeline form left to try');
    const design = best.design as string;
    const description = `initial design: ${design} as a pipeline (${form.keeps})`;
    if (started.some((e) => e.key === design && e.to === 'pipeline'))
      throw new MetaAgentError(`${description} was tried from the root already`);
    const edits: Edit[] = [{ kind: 'initial-design', key: design, from: '', to: 'pipeline' }];
    return {
      files: pipelineIn(form),
      description,
      edits,
      feedback: { agent: 'offline', clusters: [], proposal: description },
    };
  }
}

/** Settings about images do nothing where no episode or task shows one: they are left alone there. */
function usableLeaf(path: string, ctx: OfflineParent): boolean {
  if (!/image|phash|visual|caption|thumbnail/i.test(path)) return true;
  const ep = ctx.exampleEpisode;
  return !!ep && ((ep.initial.images?.length ?? 0) > 0 || ep.steps.some((s) => (s.observation?.images?.length ?? 0) > 0));
}

/** Config settings already moved by a child of this parent. */
function triedPaths(ctx: OfflineParent): Set<string> {
  return new Set((ctx.tried ?? []).flatMap((t) => t.edits.filter((e) => e.kind === 'config').map((e) => e.key)));
}

/** The parent's clusters (scenarios) as the diagnosis saw them: each one's score, and the finding about it if any. */
function clustersOf(evaluation: EvaluationResult | undefined, findings: Finding[]): FeedbackCluster[] {
  if (!evaluation) return [];
  return Object.entries(evaluation.stats?.byScenario ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, s]) => {
      const weak = findings.find((f) => f.rule === 'weak-cluster' && f.detail.startsWith(`cluster "${scenario}"`));
      return {
        scenario,
        tasks: s.tasks,
        ...(s.score !== null ? { meanReward: s.score } : {}),
        summary: weak ? weak.detail : `${s.score === null ? 'no score' : `scores ${s.score.toFixed(2)}`} on ${s.tasks} tasks`,
      };
    });
}
