// The text of each request the model meta agent sends, assembled from prompt-parts.ts from the most shared part to
// the least: what every prompt of the run shares (context: the environment, the contract, automemo/lib's index);
// for a child's one call, its instructions next, the same for every parent; then the program the request is about
// (the automemo/lib declarations it imports in full, then its code: its analyses, the call writing its child and
// that child's repairs all show it the same way, except a repair of a failure the report locates, which needs only
// the child's code there); then what only this request asks.
import { fillPrompt } from '../../../foundation/llm/prompt-file.ts';
import { allLibDeclarations } from '../../../memo-programs/lib-reference.ts';
import { libImportsOf, withNeighbours } from '../../../memo-programs/lib-usage.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { Cluster } from '../evidence.ts';
import type { ModelParent, ProgramFiles } from '../types.ts';
import { renderEdits } from './edit-format.ts';
import { editsBetween } from './edits-between.ts';
import { failingLines, failureText, reportText } from './exam-report.ts';
import { context, evidence, libraryDeclarations, libraryDetails, program, prompt } from './prompt-parts.ts';

const about = (ctx: ModelParent) =>
  `${ctx.node}, mean validation score ${ctx.q.toFixed(3)} over ${ctx.evaluations} evaluations`;

/**
 * The automemo/lib declarations the parent imports, in full, in words that hold whether its code follows (its calls)
 * or not (a located repair of its child) and are the same for every parent, so requests about programs built on the
 * same foundation start alike.
 */
const parentLib = (ctx: ModelParent) => libraryDetails('the program of this request imports', ctx.files);

/** The automemo/lib declarations the parent imports, in full, then its program. */
function parentPart(ctx: ModelParent): string {
  return `${parentLib(ctx)}\n\n${program(about(ctx), ctx.files)}`;
}

/** The context and the parent (its automemo/lib declarations and its program): the start of every request about it. */
export function parentHead(ctx: ModelParent): string {
  return `${context(ctx)}${parentPart(ctx)}`;
}

/** What every analysis of this parent's evidence starts with (they differ only in their task). */
export function analysisHead(ctx: ModelParent, groups: Cluster[]): string {
  return `${parentHead(ctx)}\n\n${evidence(groups)}`;
}

/** A first program, written from nothing: every automemo/lib declaration is shown in full. */
export function initializationRequest(ctx: ModelParent, tried: string): string {
  const lib = libraryDeclarations('a program may import', allLibDeclarations());
  return `${context(ctx)}${lib}\n\n${fillPrompt(prompt('init'), { tried })}`;
}

/**
 * A child's one call: the context, then its instructions (the same for every parent, so a prefix cache serves them
 * with the context), then the parent and its evidence, then what was tried and the programs elsewhere.
 */
export function proposalRequest(ctx: ModelParent, groups: Cluster[], tried: string, inspirations: string): string {
  const task = fillPrompt(prompt('proposal'), {
    reading: prompt('reading'),
    shape: prompt('analysis-shape'),
    format: prompt('edit-format'),
    guide: prompt('evidence-guide'),
  });
  const end = fillPrompt(prompt('proposal-end'), { tried, inspirations });
  return `${context(ctx)}\n\n${task}${parentPart(ctx)}\n\n${evidence(groups, false)}\n\n${end}`;
}

export function generationRequest(ctx: ModelParent, proposal: string, tried: string, inspirations: string): string {
  return `${parentHead(ctx)}\n\n${fillPrompt(prompt('generation'), { proposal, tried, inspirations, format: prompt('edit-format') })}`;
}

/**
 * The automemo/lib declarations a child imports beyond its parent's (shown before it), in full; '' when none: the
 * parent's come first so a repair starts as its child's call did.
 */
function childExtras(parent: ProgramFiles, child: ProgramFiles): string {
  const shown = withNeighbours(libImportsOf(parent));
  const extra = [...withNeighbours(libImportsOf(child))].filter((k) => !shown.has(k));
  return libraryDeclarations('the child imports beyond those above', extra);
}

/**
 * A child of the parent that failed quick examination, shown as its edits to the parent with where it failed. When
 * the report points at the child's lines, the child's code around them is enough: the request starts with the
 * context and the parent's automemo/lib declarations (the prefix the child's own call started with) and leaves the
 * parent's code out. Otherwise the parent is shown whole, as the child's call showed it.
 */
export function repairRequest(ctx: ModelParent, child: ProgramFiles, report: QuickExamReport): string {
  const edits = renderEdits(editsBetween(ctx.files, child));
  const lines = failingLines(report, child);
  const parts = { failure: failureText(report), report: reportText(report), lines, format: prompt('edit-format') };
  const extras = childExtras(ctx.files, child);
  if (lines) {
    const lib = `${parentLib(ctx)}${extras}`;
    return `${context(ctx)}${lib}\n\n${fillPrompt(prompt('repair-local'), { ...parts, about: about(ctx), edits: edits || '(none: the child is that program)' })}`;
  }
  return `${parentHead(ctx)}${extras}\n\n${fillPrompt(prompt('repair'), { ...parts, edits: edits || '(none: the child is the program above)' })}`;
}
