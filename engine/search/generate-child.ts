// A generate action: the meta agent proposes a child of the parent, the child is quick-examined and repaired (at
// most `repairAttempts` times), and one that passes is either a no-op (it would change nothing: said so, and the
// step may try again) or a new node, evaluated at once. A child that never passes spends the step but no evaluation.
import { join, relative } from 'node:path';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import { type ChildFailure, childFailure, type Edit, MAX_EDITS, MetaAgentError, type Proposal } from '../meta/types.ts';
import { evaluateNode, recordNodeEvaluation, scoreProgram } from './evaluate-node.ts';
import type { NoOp, NoOpCheck } from './no-op-check.ts';
import type { ParentContexts } from './parent-context.ts';
import type { SearchRun } from './search-run.ts';
import type { TreeNode } from './tree.ts';

/** Children that changed nothing one step may write before it ends as a no-op. */
export const MAX_NO_OP_TRIES = 3;

export interface Generator {
  run: SearchRun;
  contexts: ParentContexts;
  noOps: NoOpCheck;
}

/** One generate step: up to MAX_NO_OP_TRIES children, until one is not a no-op. */
export async function generateStep(g: Generator, parentId: string, step: number): Promise<void> {
  for (let again = 0; again < MAX_NO_OP_TRIES; again++) if ((await generateChild(g, parentId, step, again)) !== 'no-op') return;
}

/** One child of the parent: a node, a failed generation, or a no-op (then said so, for another try). */
async function generateChild(g: Generator, parentId: string, step: number, again: number): Promise<'done' | 'no-op'> {
  const { run } = g;
  const parent = run.tree.get(parentId);
  const ctx = await g.contexts.of(parent, step);
  const childId = `n${step}`;
  // A try after a no-op writes beside it; the no-op's own files were moved aside (noOp).
  const base = again ? `${childId}-again${again}` : childId;
  let proposal: Proposal | null;
  try {
    proposal = await run.deps.meta.propose(ctx);
  } catch (err) {
    return failed(run, err, parentId, step, 1);
  }
  for (let attempt = 0; proposal; attempt++) {
    let dir = run.folder.writeProgram(attempt === 0 ? base : `${base}-try${attempt}`, proposal.files);
    const report = await run.examine(proposal.files, dir);
    // The first try sits at the child's own name: if it does not become the child, it moves aside (a later try is
    // written there) before any event names it.
    const own = attempt === 0 && again === 0;
    if (report.passed) return accept(g, { parent, proposal, report, dir, childId, step, attempt, again, own });
    if (own) dir = run.folder.moveProgram(childId, `${childId}-try0`);
    logExam(run, step, dir, attempt, report);
    if (attempt >= run.options.repairAttempts) {
      const failure = examFailure(report);
      run.tree.failed.push({ parent: parentId, step, failure, attempts: attempt + 1 });
      run.log({
        type: 'generation-failed',
        step,
        parent: parentId,
        failure,
        attempts: attempt + 1,
        dir: relative(run.folder.dir, dir),
      });
      return 'done';
    }
    try {
      proposal = await run.deps.meta.repair(proposal, report, ctx, attempt + 1);
    } catch (err) {
      return failed(run, err, parentId, step, attempt + 1);
    }
  }
  const failure = childFailure('meta-agent', 'the meta agent gave up');
  run.tree.failed.push({ parent: parentId, step, failure, attempts: 1 });
  run.log({ type: 'generation-failed', step, parent: parentId, failure, attempts: 1 });
  return 'done';
}

/** A proposal's edits as the tree and the journal keep them (the journal reads back at most MAX_EDITS). */
const editsOf = (proposal: Proposal): Edit[] => proposal.edits.slice(0, MAX_EDITS);

/** The check that failed a quick examination and what it said (the first failed check when none was singled out). */
function examFailure(report: QuickExamReport): ChildFailure {
  const first = report.failure ?? report.checks.filter((c) => !c.ok).map((c) => ({ check: c.name, detail: c.message }))[0];
  return first ? childFailure(first.check, first.detail) : childFailure('imports', 'quick examination failed');
}

function logExam(run: SearchRun, step: number, dir: string, attempt: number, report: QuickExamReport): void {
  run.log({ type: 'quick-exam', step, dir: relative(run.folder.dir, dir), attempt, passed: report.passed, ...(report.failure ? { failure: `${report.failure.check}: ${report.failure.detail}`.slice(0, 2000) } : {}) });
}

interface Passed {
  parent: TreeNode;
  proposal: Proposal;
  report: QuickExamReport;
  dir: string;
  childId: string;
  step: number;
  attempt: number;
  again: number;
  /** Written at the child's own name (the step's first try). */
  own: boolean;
}

/** A child that passed quick examination: a no-op, or a node of the tree with its first evaluation. */
async function accept(g: Generator, p: Passed): Promise<'done' | 'no-op'> {
  const { run } = g;
  const twin = g.noOps.twin(p.proposal.files);
  if (twin) return noOp(run, p, twin);
  // Deterministic: the child's first evaluation is the test (every payload of its first sample against the parent's).
  if (Number.isFinite(run.tree.evaluationLimit)) {
    const compiled = await compileProgram({ entryPath: join(p.dir, 'index.ts') });
    if (!compiled.ok) throw new Error(`child ${p.childId} passed its examination but does not compile: ${compiled.issues.map(formatIssue).join('; ')}`);
    const scored = await scoreProgram(run, p.childId, compiled.program, 'train', 0, p.step);
    const same = scored.event.score === null ? undefined : g.noOps.sameFirstSample(p.parent, join(run.folder.dir, scored.event.evidence));
    if (same) {
      run.lastEval.delete(p.childId);
      setAsideEvidence(join(run.folder.dir, scored.event.evidence), 'no-op');
      return noOp(run, p, same);
    }
    logExam(run, p.step, p.dir, p.attempt, p.report);
    const child = await addChild(g, p);
    recordNodeEvaluation(run, child, scored.event);
    return 'done';
  }
  const same = await g.noOps.sameExam(p.parent, p.report);
  if (same) return noOp(run, p, same);
  g.noOps.remember(p.childId, p.report);
  logExam(run, p.step, p.dir, p.attempt, p.report);
  await evaluateNode(run, await addChild(g, p), 'train', p.step);
  return 'done';
}

/** Makes the child a node of the tree, with what the meta agent said about it. */
async function addChild(g: Generator, p: Passed): Promise<TreeNode> {
  const { run } = g;
  const { parent, proposal, step } = p;
  if (p.attempt > 0 || p.again > 0) run.folder.writeProgram(p.childId, proposal.files);
  const child = await run.programNode(
    p.childId,
    proposal.files,
    parent.id,
    'child',
    step,
    proposal.description,
    editsOf(proposal),
  );
  // Written before the node line, so a viewer that sees the node finds its meta.json.
  run.folder.writeMeta(p.childId, {
    node: p.childId,
    parent: parent.id,
    step,
    agent: run.deps.meta.mode,
    description: proposal.description,
    ...(proposal.edits.length ? { edits: editsOf(proposal) } : {}),
    attempts: p.attempt + 1,
    ...(proposal.feedback ? { feedback: proposal.feedback } : {}),
  });
  run.addNode(child, step);
  return child;
}

/** A child that would change nothing: recorded for the agent (it tries again), never a node. */
function noOp(run: SearchRun, p: Passed, noop: NoOp): 'no-op' {
  const { parent, proposal, step } = p;
  const dir = p.own ? run.folder.moveProgram(p.childId, `${p.childId}-noop`) : p.dir;
  logExam(run, step, dir, p.attempt, p.report);
  const edits = proposal.edits.length ? { edits: editsOf(proposal) } : {};
  run.tree.noops.push({ parent: parent.id, step, reason: noop.reason, description: proposal.description, ...edits });
  run.log({
    type: 'no-op',
    step,
    parent: parent.id,
    reason: noop.reason,
    ...(noop.same ? { same: noop.same } : {}),
    dir: relative(run.folder.dir, dir),
    description: proposal.description.slice(0, 2000),
    ...edits,
  });
  return 'no-op';
}

/** The meta agent failed to propose or repair: a failed generation (any other error is a bug and is thrown). */
function failed(run: SearchRun, err: unknown, parent: string, step: number, attempts: number): 'done' {
  if (!(err instanceof MetaAgentError)) throw err;
  const failure = childFailure('meta-agent', err.message);
  run.tree.failed.push({ parent, step, failure, attempts });
  run.log({ type: 'generation-failed', step, parent, failure, attempts });
  return 'done';
}
