// A generate action: the meta agent proposes a child of the parent, the child is quick-examined and repaired (at
// most `repairAttempts` times), and one that passes is either a no-op (it would change nothing: said so, and the
// step may try again) or a new node, evaluated at once. A child that never passes spends the step but no evaluation.
// Every outcome is a journal line (quick-exam, no-op, generation-failed, node, digests, evaluation), which is what the
// tree and the next prompt are made of.
import { join, relative } from 'node:path';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import {
  type ChildFailure,
  childFailure,
  type Edit,
  MAX_EDITS,
  type MetaAgent,
  MetaAgentError,
  type Proposal,
} from '../meta/types.ts';
import type { Evaluations } from './evaluate-node.ts';
import { examDigests, type NoOp, type NoOpCheck } from './no-op-check.ts';
import type { ParentContexts } from './parent-context.ts';
import type { ProgramStore } from './program-store.ts';
import type { SearchJournal } from './search-journal.ts';
import type { TreeNode } from './tree.ts';

/** Children that changed nothing one step may write before it ends as a no-op. */
export const MAX_NO_OP_TRIES = 3;

export interface Generator {
  journal: SearchJournal;
  programs: ProgramStore;
  evaluations: Evaluations;
  contexts: ParentContexts;
  noOps: NoOpCheck;
  meta: MetaAgent;
  repairAttempts: number;
}

/** One generate step: up to MAX_NO_OP_TRIES children, until one is not a no-op. */
export async function generateStep(g: Generator, parentId: string, step: number): Promise<void> {
  for (let again = 0; again < MAX_NO_OP_TRIES; again++)
    if ((await generateChild(g, parentId, step, again)) !== 'no-op') return;
}

/** One child of the parent: a node, a failed generation, or a no-op (then said so, for another try). */
async function generateChild(g: Generator, parentId: string, step: number, again: number): Promise<'done' | 'no-op'> {
  const { journal, programs } = g;
  const parent = journal.state.tree.get(parentId);
  const ctx = await g.contexts.of(parent, step, g.meta.reads);
  const childId = `n${step}`;
  // A try after a no-op writes beside it; the no-op's own files were moved aside (noOp).
  const base = again ? `${childId}-again${again}` : childId;
  let proposal: Proposal | null;
  try {
    proposal = await g.meta.propose(ctx);
  } catch (err) {
    return failed(journal, err, parentId, step, 1);
  }
  for (let attempt = 0; proposal; attempt++) {
    let dir = programs.folder.writeProgram(attempt === 0 ? base : `${base}-try${attempt}`, proposal.files);
    const report = await programs.examine(proposal.files, dir);
    // The first try sits at the child's own name: if it does not become the child, it moves aside (a later try is
    // written there) before any event names it.
    const own = attempt === 0 && again === 0;
    if (report.passed) return accept(g, { parent, proposal, report, dir, childId, step, attempt, again, own });
    if (own) dir = programs.folder.moveProgram(childId, `${childId}-try0`);
    logExam(g, step, dir, attempt, report);
    if (attempt >= g.repairAttempts) {
      const failure = examFailure(report);
      journal.record({
        type: 'generation-failed',
        step,
        parent: parentId,
        failure,
        attempts: attempt + 1,
        dir: relative(programs.folder.dir, dir),
      });
      return 'done';
    }
    try {
      proposal = await g.meta.repair(proposal, report, ctx, attempt + 1);
    } catch (err) {
      return failed(journal, err, parentId, step, attempt + 1);
    }
  }
  journal.record({
    type: 'generation-failed',
    step,
    parent: parentId,
    failure: childFailure('meta-agent', 'the meta agent gave up'),
    attempts: 1,
  });
  return 'done';
}

/** A proposal's edits as the journal keeps them (it reads back at most MAX_EDITS). */
const editsOf = (proposal: Proposal): Edit[] => proposal.edits.slice(0, MAX_EDITS);

/** The check that failed a quick examination and what it said (the first failed check when none was singled out). */
function examFailure(report: QuickExamReport): ChildFailure {
  const first =
    report.failure ?? report.checks.filter((c) => !c.ok).map((c) => ({ check: c.name, detail: c.message }))[0];
  return first ? childFailure(first.check, first.detail) : childFailure('imports', 'quick examination failed');
}

function logExam(g: Generator, step: number, dir: string, attempt: number, report: QuickExamReport): void {
  const failure = report.failure ? { failure: childFailure(report.failure.check, report.failure.detail) } : {};
  g.journal.record({
    type: 'quick-exam',
    step,
    dir: relative(g.programs.folder.dir, dir),
    attempt,
    passed: report.passed,
    ...failure,
  });
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
  const { journal, programs, evaluations } = g;
  const twin = g.noOps.twin(p.proposal.files);
  if (twin) return noOp(g, p, twin);
  // Deterministic: the child's first evaluation is the test (every payload of its first sample against the parent's).
  if (journal.state.tree.deterministic) {
    const compiled = await compileProgram({ entryPath: join(p.dir, 'index.ts') });
    if (!compiled.ok)
      throw new Error(
        `child ${p.childId} passed its examination but does not compile: ${compiled.issues.map(formatIssue).join('; ')}`,
      );
    const scored = await evaluations.score(p.childId, compiled.program, 'train', 0, p.step);
    const same =
      scored.event.score === null
        ? undefined
        : g.noOps.sameFirstSample(p.parent, join(programs.folder.dir, scored.event.evidence));
    if (same) {
      setAsideEvidence(join(programs.folder.dir, scored.event.evidence), 'no-op');
      return noOp(g, p, same);
    }
    logExam(g, p.step, p.dir, p.attempt, p.report);
    await addChild(g, p);
    evaluations.record(scored.event);
    return 'done';
  }
  const same = await g.noOps.sameExam(p.parent, p.report, p.step);
  if (same) return noOp(g, p, same);
  logExam(g, p.step, p.dir, p.attempt, p.report);
  const child = await addChild(g, p);
  // Its own children's payloads are compared with its examination's.
  journal.record({ type: 'digests', step: p.step, node: child.id, digests: examDigests(p.report) });
  await evaluations.evaluate(child, 'train', p.step);
  return 'done';
}

/** Makes the child a node of the tree (its `node` line), with what the meta agent said about it. */
async function addChild(g: Generator, p: Passed): Promise<TreeNode> {
  const { journal, programs } = g;
  const { parent, proposal, step } = p;
  if (p.attempt > 0 || p.again > 0) programs.folder.writeProgram(p.childId, proposal.files);
  const spec = {
    id: p.childId,
    parent: parent.id,
    kind: 'child' as const,
    step,
    parentSnapshot: journal.state.tree.q(parent),
  };
  const line = await programs.writeNode(
    { ...spec, description: proposal.description, edits: editsOf(proposal), ...(proposal.mode ? { mode: proposal.mode } : {}) },
    proposal.files,
  );
  // Written before the node line, so a viewer that sees the node finds its meta.json.
  programs.folder.writeMeta(p.childId, {
    node: p.childId,
    parent: parent.id,
    step,
    agent: g.meta.mode,
    description: proposal.description,
    ...(proposal.edits.length ? { edits: editsOf(proposal) } : {}),
    attempts: p.attempt + 1,
    ...(proposal.feedback ? { feedback: proposal.feedback } : {}),
  });
  journal.record(line);
  return journal.state.tree.get(p.childId);
}

/** A child that would change nothing: recorded for the agent (it tries again), never a node. */
function noOp(g: Generator, p: Passed, noop: NoOp): 'no-op' {
  const { parent, proposal, step } = p;
  const dir = p.own ? g.programs.folder.moveProgram(p.childId, `${p.childId}-noop`) : p.dir;
  logExam(g, step, dir, p.attempt, p.report);
  g.journal.record({
    type: 'no-op',
    step,
    parent: parent.id,
    rule: noop.rule,
    reason: noop.reason,
    ...(noop.same ? { same: noop.same } : {}),
    dir: relative(g.programs.folder.dir, dir),
    description: proposal.description.slice(0, 2000),
    ...(proposal.edits.length ? { edits: editsOf(proposal) } : {}),
    ...(proposal.mode ? { mode: proposal.mode } : {}),
  });
  return 'no-op';
}

/** The meta agent failed to propose or repair: a failed generation (any other error is a bug and is thrown). */
function failed(journal: SearchJournal, err: unknown, parent: string, step: number, attempts: number): 'done' {
  if (!(err instanceof MetaAgentError)) throw err;
  journal.record({
    type: 'generation-failed',
    step,
    parent,
    failure: childFailure('meta-agent', err.message),
    attempts,
  });
  return 'done';
}
