// A search on the terminal (or a pipe): one line per step — what was done, its score, the best LCB, the time left,
// the spend — from the journal's events as they are written.
import {
  describeFailure,
  differingPart,
  editLabel,
  type JournalEvent,
  type RunOptions,
  type SearchProgress,
} from '../api/index.ts';
import { bestLcb, FINAL_STEP } from '../api/search.ts';
import { clock, dim } from './style.ts';
import { forTerminal, toStdout } from './terminal.ts';

export const fmt = (x: number | undefined | null) => (x === undefined || x === null ? '—' : x.toFixed(3));

/**
 * The time the steps still to run will take: the budget's steps so far took `sinceFirstStep` ms for `stepsDone`
 * steps. Step 0 (the root, the seeds, the screen of the standard designs) is not one of them: counted in, it made
 * the first estimate of a one-minute demo 8 min 40 s.
 */
export function stepsLeftMs(sinceFirstStep: number, stepsDone: number, stepsLeft: number): number {
  return stepsDone > 0 ? (sinceFirstStep / stepsDone) * Math.max(0, stepsLeft) : 0;
}

const children = (n: number) => (n === 1 ? 'a child' : `${n} children`);

/** One line per step, written through `write`; `now` is the clock (a test's own). */
export function stepProgress(
  options: RunOptions,
  given?: (text: string) => void,
  now: () => number = Date.now,
): (e: JournalEvent, s: SearchProgress) => void {
  // A writer of the caller's own gets the text as the terminal would (printable; colours real).
  const write = given ? (text: string) => given(forTerminal(text)) : toStdout;
  /** What each step does ("step 3/20 generate from n1"): with steps in flight at once, lines are per step. */
  const lines = new Map<number, string>();
  /** Children a step wrote that changed nothing (a step tries up to three): said once, in the step's own line. */
  const noOps = new Map<number, { count: number; reason: string }>();
  /** Designs the screen scored: their nodes' evaluation lines are the screen's, already printed. */
  const screened = new Set<string>();
  let firstStepAt: number | undefined;
  let stepsDone = 0;
  const lineOf = (step: number) => lines.get(step) ?? `step ${step}/${options.budget}`;
  const after = (step: number) => {
    const n = noOps.get(step);
    noOps.delete(step);
    return n ? ` (after ${children(n.count)} that changed nothing)` : '';
  };
  const flushNoOp = (step: number) => {
    const n = noOps.get(step);
    if (n)
      write(
        `  ${lineOf(step)}: ${children(n.count)} that changed nothing, not evaluated (${n.reason.slice(0, 120)})\n`,
      );
    noOps.delete(step);
  };
  return (e, s) => {
    if (e.type === 'action') {
      if (e.step > 0) firstStepAt ??= now();
      lines.set(
        e.step,
        `step ${e.step}/${options.budget} ${e.kind === 'generate' ? `generate from ${e.node}` : e.retry ? `retry ${e.node} (no score yet)` : `re-evaluate ${e.node}`}`,
      );
    }
    if (e.type === 'node' && e.step === 0 && !screened.has(e.id)) write(dim(`  ${e.id}: evaluating…\n`));
    if (e.type === 'screen') {
      for (const r of e.results) screened.add(r.node);
      write(
        `  screened ${e.results.length} standard designs on validation: ${e.results.map((r) => `${r.design} ${fmt(r.score)}${r.kept ? ' (kept)' : ''}`).join(', ')}\n`,
      );
    }
    if (e.type === 'quick-exam' && !e.passed)
      write(
        dim(
          `  ${lineOf(e.step)}: quick examination failed (try ${e.attempt + 1}): ${e.failure ? `${e.failure.check}: ${e.failure.detail}`.slice(0, 160) : ''}\n`,
        ),
      );
    if (e.type === 'evaluation') write(evaluationLine(e, s));
    if (e.type === 'no-op') {
      const n = noOps.get(e.step);
      noOps.set(e.step, { count: (n?.count ?? 0) + 1, reason: e.reason });
    }
    if (e.type === 'generation-failed')
      write(
        `  ${lineOf(e.step)}${after(e.step)}: generation failed after ${e.attempts} tries (${describeFailure(e.failure).slice(0, 120)})\n`,
      );
    if (e.type === 'step-done') {
      flushNoOp(e.step);
      if (e.step > 0) stepsDone++;
      lines.delete(e.step);
    }
    if (e.type === 'stopped') {
      for (const step of [...noOps.keys()]) flushNoOp(step);
      write(`  stopped at step ${e.step}: ${e.reason}\n`);
    }
  };

  function evaluationLine(e: Extract<JournalEvent, { type: 'evaluation' }>, s: SearchProgress): string {
    if (e.score === null) {
      const what =
        e.step === 0
          ? `  ${e.node}: validation`
          : e.split === 'test'
            ? `  test split: ${e.node}`
            : `  ${lineOf(e.step)}${after(e.step)}`;
      return `${what} unscored: ${(e.unscored ?? '').slice(0, 200)}\n`;
    }
    const tree = s.tree;
    const node = tree.nodes.get(e.node);
    if (e.step === 0)
      return screened.has(e.node) ? '' : `  ${e.node}: validation ${e.score.toFixed(3)} on ${e.tasks} tasks\n`;
    if (e.step === FINAL_STEP && e.split === 'train')
      return `  confirming ${e.node} on another validation sample: ${e.score.toFixed(3)} on ${e.tasks} tasks → mean ${node ? tree.q(node).toFixed(3) : '?'}\n`;
    if (e.split === 'test') return `  test split: ${e.node} ${e.score.toFixed(3)} on ${e.tasks} tasks\n`;
    if (!node) return '';
    const best = bestLcb(tree, options.ucb);
    const elapsed = now() - s.startedAt;
    // This step is done but for its bookkeeping: counted with the finished ones.
    const left = stepsLeftMs(now() - (firstStepAt ?? now()), stepsDone + 1, options.budget - e.step);
    const fresh = node.kind === 'child' && node.scores.length === 1;
    const what = fresh ? ` → ${node.id} ${childWords(node, tree)}` : '';
    const ledger = s.ledger;
    return (
      `  ${lineOf(e.step)}${after(e.step)}${what}: ${e.score.toFixed(3)}${fresh ? '' : ` → mean ${tree.q(node).toFixed(3)} (n=${node.scores.length})`} | ` +
      `best LCB ${fmt(best?.lcb)} ${best?.node.id ?? ''} | ${clock(elapsed)} elapsed, ~${clock(left)} of steps left | ${ledger.tokens} tokens${ledger.total.usd !== null ? ` $${ledger.usd.toFixed(4)}` : ''}\n`
    );
  }
}

type Tree = SearchProgress['tree'];
type Node = NonNullable<ReturnType<Tree['nodes']['get']>>;

/**
 * What a child changed, as its step line says it: which mode chose it, the part of its description that differs
 * from its parent's and its earlier siblings' (eight tails on one crossover share their first hundred characters),
 * and, when earlier siblings tried the same idea, which try of it this is.
 */
export function childWords(node: Node, tree: Tree): string {
  const siblings = [...tree.nodes.values()].filter(
    (n) => n.kind === 'child' && n.parent === node.parent && n.id !== node.id && n.step < node.step,
  );
  const parent = node.parent ? tree.nodes.get(node.parent) : undefined;
  const others = [parent, ...siblings].map((n) => n?.description).filter((d): d is string => !!d);
  const label = editLabel(node.edits, node.description, node.id);
  const same = siblings.filter((n) => editLabel(n.edits, n.description, n.id).group === label.group).length;
  const idea = same ? ` (${label.groupLabel}: try ${same + 1} from ${node.parent})` : '';
  // Which mode chose the edit (evidence, extend, sweep, crossover, …), as the node records it.
  const mode = node.mode ? `${node.mode}: ` : '';
  return `[${mode}${differingPart(node.description ?? label.label, others)}]${idea}`;
}
