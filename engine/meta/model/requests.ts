// The text of each request the model meta agent sends, assembled from prompt-parts.ts with the stable part first:
// what every prompt of the run shares (context), then the program the request is about (the parent: its analyses,
// the generation of its child and that child's repairs all show it the same way), then what only this request asks.
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

export function generationRequest(ctx: ModelParent, proposal: string, tried: string, inspirations: string): string {
  return `${parentHead(ctx)}\n\n${fillPrompt(prompt('generation'), { proposal, tried, inspirations, format: prompt('edit-format') })}`;
}

/** A child of the parent that failed quick examination: shown as its edits to the parent, with where it failed. */
export function repairRequest(ctx: ModelParent, child: ProgramFiles, report: QuickExamReport): string {
  const edits = renderEdits(editsBetween(ctx.files, child)) || '(none: the child is the program above)';
  return `${parentHead(ctx)}\n\n${fillPrompt(prompt('repair'), { edits, failure: failureText(report), report: reportText(report), lines: failingLines(report, child), format: prompt('edit-format') })}`;
}
