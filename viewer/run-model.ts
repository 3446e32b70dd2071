// A run folder read into plain data for the viewer and the report: the run, every node with its mean, evaluations,
// confidence interval and LCB (from engine/search/ucb.ts), the action log with the competing scores, failed
// generations, the best mean and best LCB after each step, and whether the run is still going. Only steps the
// journal completed count (the replay's rule), so the tree shown is the tree a resume would continue from.
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { editLabel } from '../engine/meta/edit-label.ts';
import { digest, type RunDigest } from './digest.ts';
import type { NodeView, RunStatus } from './node-view.ts';
import { describeFailure } from '../engine/meta/describe.ts';
import type { ChildFailure, Edit } from '../engine/meta/types.ts';
import { selectFinal } from '../engine/search/selection.ts';
import { FINAL_STEP } from '../engine/search/final-phase.ts';
import type { ValidationPlan } from '../engine/search/validation-sampler.ts';
import type { NoOpChild, SearchTree } from '../engine/search/tree.ts';
import { evalScore, lcb, type UcbParams } from '../engine/search/ucb.ts';
import { insideRoot } from '../foundation/safe-path.ts';
import { readSmallFile } from '../foundation/small-file.ts';
import type { JournalEvent } from '../engine/search/journal-events.ts';
import { readJournal } from '../run-store/journal.ts';
import { replay } from '../engine/search/replay.ts';
import { alive, RunFolder, type RunInfo } from '../run-store/run-folder.ts';

export interface EvaluationPoint {
  /** The step that ran it; the final phase's confirmations carry -1. */
  step: number;
  node: string;
  /** root / seed: step 0; child: a child's first score; re-evaluation: a later one; final: the final phase's. */
  kind: 'root' | 'seed' | 'child' | 're-evaluation' | 'final';
  score: number;
  tasks: number;
}

export interface FailureView {
  parent: string;
  step: number;
  /** The check that stopped it (or the meta agent), and what it said. */
  failure: ChildFailure;
  /** The same in words (describeFailure), for the page. */
  reason: string;
  attempts: number;
  dir?: string;
}

/** A child that passed quick examination but would have changed nothing: not a node, not evaluated. */
export interface NoOpView {
  /** Its place among the run's no-ops (several may share a step: the step tries again), the page's key for it. */
  index: number;
  parent: string;
  step: number;
  reason: string;
  /** The node it is the same as (the same program, or the same payloads on every quick-examination task). */
  same?: string;
  description?: string;
  edits?: Edit[];
  /** Its program folder, relative to the run. */
  dir?: string;
  /**
   * Whether its folder still holds its program: a later try of the step that became the node writes the node's
   * program into the folder the first try used, so a no-op sharing its folder with a node has lost its files.
   */
  filesKept: boolean;
}

export interface ActionView {
  step: number;
  kind: 'evaluate' | 'generate';
  node: string;
  score: number;
  candidates: { kind: 'evaluate' | 'generate'; node: string; score: number }[];
  /** What it led to: the child written, the failure, or the new score. */
  child?: string;
  failed?: string;
  /** A child that would have changed nothing, with why (the step's last); not evaluated. */
  noop?: string;
  /** How many children of the step changed nothing (a step tries again after one). */
  noops?: number;
  result?: number;
  /** The step's evaluation scored nothing: why. */
  unscored?: string;
  /** The step retried a node owed a first score, ahead of the policy: why. */
  retry?: string;
}

export interface StepPoint {
  step: number;
  /** Validation evaluations so far. */
  N: number;
  bestMean: number;
  bestMeanNode: string;
  bestLcb: number;
  bestLcbNode: string;
}

export interface RunView {
  dir: string;
  name: string;
  info: RunInfo;
  status: RunStatus;
  /** The process writing the run, while it runs. */
  pid?: number;
  /** The journal's last line was cut off (a kill mid-write, or a write in progress); it is not counted. */
  torn?: { line: number; text: string };
  ucb: UcbParams;
  N: number;
  completedSteps: number;
  nodes: NodeView[];
  failures: FailureView[];
  /** Children not evaluated because they would have changed nothing. */
  noops: NoOpView[];
  actions: ActionView[];
  steps: StepPoint[];
  /** Every scored validation evaluation, in order. */
  points: EvaluationPoint[];
  /** The action of a step that has started and not finished. */
  inFlight?: { step: number; kind: string; node: string; since: number };
  final?: { selection: string; winner: string; lcb: number; validation: number; tied?: string[]; tieNote?: string };
  /** What the validation can tell apart, as the run said when it last started. */
  validation?: ValidationPlan;
  /** Step 0's screen of standard designs (--seeds auto). */
  screen?: { design: string; node: string; score: number | null; tasks: number; kept: boolean }[];
  /** The node the run's selection rule picks from the tree as it stands. */
  winner: string | null;
  /** What to know first: the pick against the best starting program, the children, ideas tried more than once. */
  digest: RunDigest;
  spend: { calls: number; tokens: number; cachedTokens: number; usd: number | null };
  journalBytes: number;
}

/** Why a folder cannot be viewed, in words a user can act on. */
export class NotARunError extends Error {
  override name = 'NotARunError';
}

/** Reads run.json, naming what is wrong when the folder is not a run. */
export function readRunInfo(dir: string): RunInfo {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new NotARunError(`${dir} does not exist`);
  if (!statSync(abs).isDirectory())
    throw new NotARunError(`${dir} is not a folder (give the run folder, the one holding run.json and journal.jsonl)`);
  const folder = new RunFolder(abs);
  if (!folder.exists())
    throw new NotARunError(
      `${dir} is not a run folder: it has no run.json (a run folder holds run.json, journal.jsonl, programs/ and evidence/; see run-store/README.md)`,
    );
  try {
    return folder.read();
  } catch (err) {
    throw new NotARunError((err as Error).message);
  }
}

export function readRun(dir: string): RunView {
  const abs = resolve(dir);
  const info = readRunInfo(abs);
  const folder = new RunFolder(abs);
  const journalBytes = existsSync(folder.journalPath) ? statSync(folder.journalPath).size : 0;
  const read = readJournal(folder.journalPath);
  const past = replay(read.events);
  const p = info.options.ucb;
  const tree = past.tree;
  const N = tree.totalEvaluations();
  const pid = lockHolder(folder.lockPath);
  const nodes = [...tree.nodes.values()].map((node) => {
    const n = node.scores.length;
    const q = n ? tree.q(node) : null;
    const view: NodeView = {
      id: node.id,
      parent: node.parent,
      kind: node.kind,
      step: node.step,
      dir: node.dir,
      hash: node.hash,
      parentSnapshot: node.parentSnapshot,
      scores: node.scores,
      n,
      q,
      ci: q === null ? null : evalScore(q, n, N, p) - q,
      lcb: q === null ? null : lcb(q, n, N, p),
      evaluations: past.evaluations
        .filter((e) => e.node === node.id)
        .map((e) => ({
          split: e.split,
          index: e.index,
          step: e.step,
          score: e.score,
          ...(e.unscored ? { unscored: e.unscored } : {}),
          tasks: e.tasks,
          evidence: e.evidence,
          ms: e.ms,
        })),
      unscored: node.unscored ?? [],
      hasMeta: insideRoot(abs, `${node.dir}/meta.json`) !== null,
      ...(node.description ? { description: node.description } : {}),
      ...(node.edits ? { edits: node.edits } : {}),
      ...(node.testScore !== undefined ? { testScore: node.testScore } : {}),
      ...(node.kind === 'child' ? { edit: editLabel(node.edits, node.description, node.id) } : {}),
    };
    return view;
  });
  for (const r of past.screen?.results ?? []) {
    const seed = nodes.find((n) => n.id === r.node);
    if (seed) seed.design = r.design;
  }
  for (const [i, seed] of info.options.seeds.entries()) {
    const node = nodes.filter((n) => n.kind === 'seed')[i];
    if (node && !node.design) node.design = seed;
  }
  const finalEvent = [...read.events].reverse().find((e) => e.type === 'final');
  // The final phase's pick (it read the evidence task by task); before one, the selection rule's.
  const winner =
    finalEvent?.type === 'final' && tree.nodes.has(finalEvent.winner)
      ? finalEvent.winner
      : tree.evaluated().length
        ? selectFinal(tree, p, info.options.selection).id
        : null;
  const runStatus = status(read.events, past.stop.kind !== 'running', pid);
  const out: RunView = {
    dir: abs,
    name: basename(abs),
    info,
    status: runStatus,
    ucb: p,
    N,
    completedSteps: past.completedSteps,
    nodes,
    noops: noOpViews(tree.noops, nodes),
    failures: tree.failed.map((f) => ({
      parent: f.parent,
      step: f.step,
      failure: f.failure,
      reason: describeFailure(f.failure),
      attempts: f.attempts,
      ...(f.dir ? { dir: f.dir } : {}),
    })),
    actions: past.actions.map((a) => outcome(a, past.evaluations, tree)),
    steps: stepSeries(past.evaluations, [0, ...past.actions.map((a) => a.step)], p),
    points: evaluationPoints(past.evaluations, tree),
    winner,
    spend: spendOf(past.metaCalls),
    journalBytes,
    digest: digest(nodes, winner, runStatus),
  };
  if (pid !== undefined) out.pid = pid;
  if (read.tornLine) out.torn = read.tornLine;
  const flying = inFlight(read.events);
  if (flying) out.inFlight = flying;
  if (finalEvent?.type === 'final') {
    out.final = {
      selection: finalEvent.selection,
      winner: finalEvent.winner,
      lcb: finalEvent.lcb,
      validation: finalEvent.validation,
      ...(finalEvent.tied ? { tied: finalEvent.tied } : {}),
      ...(finalEvent.tieNote ? { tieNote: finalEvent.tieNote } : {}),
    };
  }
  const plan = [...read.events].reverse().find((e) => e.type === 'validation');
  if (plan?.type === 'validation') {
    const { type: _type, t: _t, ...v } = plan;
    out.validation = v;
  }
  if (past.screen)
    out.screen = past.screen.results.map((r) => ({
      design: r.design,
      node: r.node,
      score: r.score,
      tasks: r.tasks,
      kept: r.kept,
    }));
  return out;
}

function lockHolder(path: string): number | undefined {
  try {
    // A lock is a pid: a few bytes, read as such whatever was put there.
    const pid = Number(readSmallFile(path, 64)?.trim());
    return pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function status(events: JournalEvent[], stopped: boolean, pid: number | undefined): RunStatus {
  if (pid !== undefined) return 'running';
  if (events.length === 0) return 'not started';
  const lastStart = events.map((e) => e.type).lastIndexOf('start');
  if (events.slice(lastStart).some((e) => e.type === 'step-done' && e.step === FINAL_STEP)) return 'finished';
  return stopped ? 'stopped' : 'interrupted';
}

/** The last action with no `step-done` after it in its session: the step being worked on (or killed). */
function inFlight(events: JournalEvent[]): RunView['inFlight'] {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as JournalEvent;
    if (e.type === 'step-done' || e.type === 'start' || e.type === 'stopped') return undefined;
    if (e.type === 'action') return { step: e.step, kind: e.kind, node: e.node, since: e.t };
  }
  return undefined;
}

function noOpViews(events: NoOpChild[], nodes: NodeView[]): NoOpView[] {
  const nodeDirs = new Set(nodes.map((n) => n.dir));
  return events.map((e, index) => ({
    index,
    parent: e.parent,
    step: e.step,
    reason: e.reason,
    ...(e.same ? { same: e.same } : {}),
    ...(e.description ? { description: e.description } : {}),
    ...(e.edits ? { edits: e.edits } : {}),
    ...(e.dir ? { dir: e.dir } : {}),
    filesKept: e.dir !== undefined && !nodeDirs.has(e.dir),
  }));
}

type Evaluation = Extract<JournalEvent, { type: 'evaluation' }>;

function outcome(
  a: Extract<JournalEvent, { type: 'action' }>,
  evaluations: Evaluation[],
  tree: SearchTree,
): ActionView {
  const view: ActionView = {
    step: a.step,
    kind: a.kind,
    node: a.node,
    score: a.score,
    candidates: a.candidates,
    ...(a.retry ? { retry: a.retry } : {}),
  };
  if (a.kind === 'generate') {
    const child = [...tree.nodes.values()].find((n) => n.kind === 'child' && n.step === a.step);
    const failed = tree.failed.find((f) => f.step === a.step);
    const noops = tree.noops.filter((x) => x.step === a.step);
    if (child) view.child = child.id;
    if (failed) view.failed = describeFailure(failed.failure);
    if (noops.length) {
      view.noop = (noops.at(-1) as (typeof noops)[number]).reason;
      view.noops = noops.length;
    }
  }
  const evaluation = evaluations.find((e) => e.step === a.step && e.split === 'train');
  if (evaluation?.score === null) view.unscored = evaluation.unscored ?? 'no task was scored';
  else if (evaluation) view.result = evaluation.score;
  return view;
}

/**
 * Best mean and best LCB over the tree after each completed step (a step with no evaluation, a failed generation,
 * repeats the last point), replaying the validation scores in order.
 */
export function stepSeries(evaluations: Evaluation[], completed: number[], p: UcbParams): StepPoint[] {
  const scores = new Map<string, number[]>();
  const points: StepPoint[] = [];
  // Unscored evaluations count in no mean and no N.
  const train = evaluations.filter((e): e is Evaluation & { score: number } => e.split === 'train' && e.score !== null);
  const steps = [...new Set([...completed, ...train.map((e) => e.step)])].filter((s) => s >= 0).sort((a, b) => a - b);
  for (const step of steps) {
    for (const e of train.filter((x) => x.step === step)) scores.set(e.node, [...(scores.get(e.node) ?? []), e.score]);
    const N = [...scores.values()].reduce((s, xs) => s + xs.length, 0);
    let point: StepPoint = { step, N, bestMean: -Infinity, bestMeanNode: '', bestLcb: -Infinity, bestLcbNode: '' };
    for (const [id, xs] of scores) {
      const q = xs.reduce((s, x) => s + x, 0) / xs.length;
      const l = lcb(q, xs.length, N, p);
      if (q > point.bestMean + 1e-12) point = { ...point, bestMean: q, bestMeanNode: id };
      if (l > point.bestLcb + 1e-12) point = { ...point, bestLcb: l, bestLcbNode: id };
    }
    if (scores.size) points.push(point);
  }
  return points;
}

/** The scored validation evaluations as points: each node's first score by what the node is, later ones as re-evaluations. */
export function evaluationPoints(evaluations: Evaluation[], tree: SearchTree): EvaluationPoint[] {
  const seen = new Set<string>();
  const out: EvaluationPoint[] = [];
  for (const e of evaluations) {
    if (e.split !== 'train' || e.score === null) continue;
    const node = tree.nodes.get(e.node);
    if (!node) continue;
    const kind = e.step < 0 ? 'final' : seen.has(e.node) ? 're-evaluation' : node.kind;
    seen.add(e.node);
    out.push({ step: e.step, node: e.node, kind, score: e.score, tasks: e.tasks });
  }
  return out;
}

function spendOf(journaled: Extract<JournalEvent, { type: 'meta-call' }>[]): RunView['spend'] {
  // A reused reply made no request and cost nothing.
  const calls = journaled.filter((c) => !c.reused);
  const priced = calls.filter((c) => c.usd !== null);
  return {
    calls: calls.length,
    tokens: calls.reduce((s, c) => s + c.promptTokens + c.completionTokens, 0),
    cachedTokens: calls.reduce((s, c) => s + (c.cachedTokens ?? 0), 0),
    usd: priced.length ? priced.reduce((s, c) => s + (c.usd as number), 0) : null,
  };
}
