// The offline meta agent: deterministic for a given (search seed, step, parent, attempt, tried children). A child of
// the no-memory root is a standard design not in the tree yet. Any other child is its parent with one change — of
// its pipeline (stages and store options: structural.ts, vocabulary.ts, crossover.ts), or of its exported config —
// and a standard design that is not a pipeline is edited as its exact form (designs.ts: the same payloads, so the
// child never starts from a weaker copy), Omni-SimpleMem through its config. Which change is chosen (choose.ts): what
// the benchmark's evidence points at, or an edit that helped elsewhere extended; then a better program's part; then a
// systematic sweep of the declared tunables (sweep.ts). Nothing already tried from the parent is written again, and
// nothing that lost there, on its way from its seed, or on a sibling (lessons.ts). The mode that chose the edit is
// part of the proposal.
import { readProgramFiles } from '../../../memo-programs/files.ts';
import { PROGRAMS } from '../../../memo-programs/registry.ts';
import { seededRandom } from '../../random.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { EvaluationResult } from '../../evaluate/evaluate.ts';
import { type Edit, type FeedbackCluster, type MetaAgent, MetaAgentError, type OfflineParent, type Proposal } from '../types.ts';
import type { Candidate } from './candidate.ts';
import { choose, configCandidates, pipelineCandidates } from './choose.ts';
import { configEvidence } from './config-evidence.ts';
import { configLeaves, materializeConfig } from './config-edit.ts';
import { diagnose, type Finding } from './diagnose.ts';
import { exactFormOf } from './designs.ts';
import { identity, lessonsFor } from './lessons.ts';
import { readEvidence } from './reading.ts';
import { readPipeline } from './stage-edit.ts';

export { effectOf } from './config-evidence.ts';

export class OfflineMetaAgent implements MetaAgent<'offline'> {
  readonly mode = 'offline' as const;
  readonly reads = ['offline'] as const;

  async propose(ctx: OfflineParent): Promise<Proposal> {
    return this.make(ctx, 0, []);
  }

  async repair(child: Proposal, _report: QuickExamReport, ctx: OfflineParent, attempt: number): Promise<Proposal | null> {
    // The offline agent cannot read a compiler error, but it can step aside: another edit of the same parent.
    return this.make(ctx, attempt, [child.edits]);
  }

  private make(ctx: OfflineParent, attempt: number, failed: Edit[][]): Proposal {
    const random = seededRandom(ctx.seed, ctx.step, ctx.node, attempt, ctx.tried?.length ?? 0);
    const form = exactFormOf(ctx.design, ctx.files);
    const files = form ? form.files : materializeConfig(ctx.files);
    const leaves = configLeaves(files).filter((l) => usableLeaf(l.path, ctx));
    const pipeline = readPipeline(files) !== undefined;
    if (leaves.length === 0 && !pipeline) return this.initialize(ctx, random);
    const lessons = lessonsFor(ctx);
    for (const edits of failed) lessons.tried.add(identity(edits));
    const findings = diagnose(ctx.evaluation, ctx.env.budget.maxChars);
    const reading = readEvidence(ctx);
    const fromConfig = configCandidates(ctx, files, configEvidence(ctx, leaves, findings, reading), lessons, (path) => usableLeaf(path, ctx));
    const candidates: Candidate[] = pipeline ? [...pipelineCandidates(ctx, files, reading, lessons), ...fromConfig.map((c) => ({ ...c, weight: c.weight * 0.5 }))] : fromConfig;
    const chosen = choose(ctx, files, candidates, lessons, random);
    if (!chosen) throw new MetaAgentError(`no edit of ${ctx.node} is left to try: every candidate was tried from it or lost near it`);
    const c = chosen.candidate;
    const kind = chosen.edits.find((e) => e.kind !== 'crossover-design')?.kind ?? chosen.edits[0]?.kind;
    // A design edited as its exact form: the marker first (the viewer groups its children by it), then the edit.
    const into: Edit[] = form ? [{ kind: 'design-into-pipeline', key: form.design, from: form.design, to: 'pipeline' }] : [];
    const on = form ? `on ${form.design}'s exact form, ` : '';
    // The mode is not in the prose: it is typed on the proposal, and the step line shows it from there.
    const description = `${on}${kind}: ${c.what} (${c.why})`;
    const feedback = { agent: 'offline' as const, clusters: clustersOf(ctx.evaluation, findings), proposal: description, findings, chosen: `${c.mode} ${kind}` };
    return { files: chosen.files, description, edits: [...into, ...chosen.edits], mode: c.mode, feedback };
  }

  /**
   * A child of a program without settings (the no-memory root): one of the standard designs not in the tree yet (the
   * donors are what it has, the screened designs included) and not started from the root before.
   */
  private initialize(ctx: OfflineParent, random: () => number): Proposal {
    const present = new Set((ctx.donors ?? []).map((d) => d.design).filter(Boolean));
    const started = new Set((ctx.tried ?? []).flatMap((t) => t.edits.filter((e) => e.kind === 'initial-design').map((e) => e.key)));
    const fresh = PROGRAMS.filter((p) => p.name !== 'no-memory' && !present.has(p.name) && !started.has(p.name));
    // Every design is in the tree: a design's exact form scores as the design, so there is nothing new to start.
    if (!fresh.length) throw new MetaAgentError('every standard design is in the tree already or was started from the root');
    const design = fresh[Math.floor(random() * fresh.length)] as (typeof fresh)[number];
    const description = `initial design ${design.name} (${design.description})`;
    return {
      files: readProgramFiles(design.path),
      description,
      edits: [{ kind: 'initial-design', key: design.name, from: '', to: design.name }],
      mode: 'design',
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
