// The text of each request the model meta agent sends, assembled from prompt-parts.ts with the stable part first:
// what every prompt of the run shares (context), then the program the request is about (the parent: its analyses,
// the call writing its child and that child's repairs all show it the same way, except a repair of a failure the
// report locates, which needs only the child's code there), then what only this request asks.
import { fillPrompt } from '../../../foundation/llm/prompt-file.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { Cluster } from '../evidence.ts';
import type { ModelParent, ProgramFiles } from '../types.ts';
import { renderEdits } from './edit-format.ts';
import { editsBetween } from './edits-between.ts';
import { failingLines, failureText, reportText } from './exam-report.ts';
import { context, evidence, program, prompt } from './prompt-parts.ts';

const about = (ctx: ModelParent) =>
  `${ctx.node}, mean validation score ${ctx.q.toFixed(3)} over ${ctx.evaluations} evaluations`;

/** The context and the parent's program: the start of every request about this parent. */
export function parentHead(ctx: ModelParent): string {
  return `${context(ctx)}\n\n${program(about(ctx), ctx.files)}`;
}

/** What every analysis of this parent's evidence starts with (they differ only in their task). */
export function analysisHead(ctx: ModelParent, groups: Cluster[]): string {
  return `${parentHead(ctx)}\n\n${evidence(groups)}`;
}

export function initializationRequest(ctx: ModelParent, tried: string): string {
  return `${context(ctx)}\n\n${fillPrompt(prompt('init'), { tried })}`;
}

/** A child's one call: the analysis head, then what to read in it, what was tried, and how to write the child. */
export function proposalRequest(ctx: ModelParent, groups: Cluster[], tried: string, inspirations: string): string {
  const task = fillPrompt(prompt('proposal'), { reading: prompt('reading'), tried, inspirations, shape: prompt('analysis-shape'), format: prompt('edit-format') });
  return `${analysisHead(ctx, groups)}\n\n${task}`;
}

export function generationRequest(ctx: ModelParent, proposal: string, tried: string, inspirations: string): string {
  return `${parentHead(ctx)}\n\n${fillPrompt(prompt('generation'), { proposal, tried, inspirations, format: prompt('edit-format') })}`;
}

/**
 * A child of the parent that failed quick examination, shown as its edits to the parent with where it failed. When
 * the report points at the child's lines, the child's code around them is enough: the request starts with the
 * context (the prefix the child's own call started with) and leaves the parent out. Otherwise the parent is shown
 * whole, as the child's call showed it.
 */
export function repairRequest(ctx: ModelParent, child: ProgramFiles, report: QuickExamReport): string {
  const edits = renderEdits(editsBetween(ctx.files, child));
  const lines = failingLines(report, child);
  const parts = { failure: failureText(report), report: reportText(report), lines, format: prompt('edit-format') };
  if (lines)
    return `${context(ctx)}\n\n${fillPrompt(prompt('repair-local'), { ...parts, about: about(ctx), edits: edits || '(none: the child is that program)' })}`;
  return `${parentHead(ctx)}\n\n${fillPrompt(prompt('repair'), { ...parts, edits: edits || '(none: the child is the program above)' })}`;
}
