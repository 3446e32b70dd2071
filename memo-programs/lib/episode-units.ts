// What a unit of memory is, cut from one episode: a step, a step found by the steps around it, a whole episode
// (rendered as a procedure or as a trajectory with its outcome and feedback), or distilled items (strategies from
// successes, lessons from failures with the checker's note, facts from conversations, as ReasoningBank keeps them).
// Each unit is plain data: what is shown, what it is found by (lexically and densely), and who or what it concerns.
import type { EpisodeRecorder, Json } from '../contract.ts';
import { stepText } from './units.ts';

/** What one unit is: a step, a step found by the `window` steps around it, a whole episode, or distilled items. */
export type UnitKind = 'steps' | 'windows' | 'episodes' | 'items';
/**
 * What a unit is found by: its own text (and, for windows, the steps around it), or the instruction of the task it
 * came from — past tasks found by how alike they are to this one, as trajectory retrieval finds them (a step is
 * found by its task's instruction and its own text).
 */
export type FindBy = 'content' | 'instruction';
/** How a whole-episode unit reads: a compact procedure, or trajectory retrieval's block (outcome, note, actions, answer). */
export type EpisodeRendering = 'procedure' | 'trajectory';

export interface ExtractOptions {
  units: UnitKind;
  window: number;
  maxUnitChars: number;
  findBy: FindBy;
  episodeText: EpisodeRendering;
  /** The outcome's note (the checker's feedback) as a unit of its own after the steps, or a line of an episode unit. */
  notes: boolean;
  /** Found by the whole text (true) or by what is shown of it (cut at maxUnitChars). */
  indexFull: boolean;
}

/** One unit as plain data. */
export interface ExtractedUnit {
  id: string;
  speaker: string;
  /** Shown whole in payloads. */
  text: string;
  /** What the lexical index reads. */
  searchText: string;
  /** What is embedded (before the store's embedChars cut); for steps and windows, the step's own text. */
  embedText: string;
  /** The step's position in the episode's steps, or -1 for a unit that is not a step (a note, an item). */
  step: number;
}

function str(v: Json | undefined): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** Per-step ids and speakers an episode may carry in meta.turns (dialogues do). */
export function stepMeta(ep: EpisodeRecorder, i: number): { id: string; speaker: string } {
  const turns = ep.meta?.turns;
  const t = Array.isArray(turns) ? turns[i] : undefined;
  const o = t && typeof t === 'object' && !Array.isArray(t) ? (t as { [k: string]: Json }) : {};
  return { id: str(o.id) || `${ep.taskId}#${i}`, speaker: str(o.speaker) };
}

/** Characters of each step a past task's episode unit shows: the action and the start of what it returned. */
export const PROCEDURE_STEP_CHARS = 240;

const clipLine = (text: string, n: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

const clipEnd = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/**
 * An episode as one readable block: task, outcome, steps, answer. A dialogue keeps every turn whole; a past task is
 * shown as its procedure — each step's action with the start of its result (a page or a tool's whole output would
 * leave no room for the steps after it, which are what an agent follows). With `note`, the outcome's feedback follows
 * the task line.
 */
export function episodeText(ep: EpisodeRecorder, maxChars: number, note = false): string {
  const dialogue = ep.meta?.kind === 'dialogue';
  const lines = [dialogue ? ep.instruction : `Task: ${ep.instruction} — ${ep.outcome.success ? 'succeeded' : 'failed'} (reward ${ep.outcome.reward.toFixed(2)})`];
  if (note && !dialogue && ep.outcome.note) lines.push(`Feedback: ${ep.outcome.note}`);
  for (const s of ep.steps) lines.push(dialogue ? stepText(s) : `${s.index + 1}. ${clipLine(stepText(s), PROCEDURE_STEP_CHARS)}`);
  if (ep.answer !== undefined) lines.push(`Answer: ${ep.answer}`);
  return clipEnd(lines.join('\n'), maxChars);
}

/** What a trajectory block shows of an episode (trajectory retrieval's rendering). */
export const TRAJECTORY = { maxSteps: 15, actionChars: 200, resultChars: 160, errorChars: 120, noteChars: 200, answerChars: 300 } as const;

/** Trajectory retrieval's block: the task, its outcome and reward, the checker's note, the numbered actions, the answer. */
export function trajectoryText(ep: EpisodeRecorder, note = true): string {
  const t = TRAJECTORY;
  const lines = [`Task: ${ep.instruction}`, `Outcome: ${ep.outcome.success ? 'SUCCESS' : 'FAILURE'} (reward ${ep.outcome.reward.toFixed(2)})`];
  if (note && ep.outcome.note) lines.push(`Note: ${clipLine(ep.outcome.note, t.noteChars)}`);
  lines.push('Actions:');
  for (const step of ep.steps.slice(0, t.maxSteps)) {
    let line = `  ${step.index + 1}. ${clipLine(step.action, t.actionChars)}`;
    if (step.result) line += ` -> ${clipLine(step.result, t.resultChars)}`;
    if (step.error) line += ` [error: ${clipLine(step.error, t.errorChars)}]`;
    lines.push(line);
  }
  if (ep.steps.length > t.maxSteps) lines.push(`  ... ${ep.steps.length - t.maxSteps} more steps`);
  if (ep.answer !== undefined) lines.push(`Final answer: ${clipLine(ep.answer, t.answerChars)}`);
  return lines.join('\n');
}

/** The units of one episode as plain data (items are made by distill.ts, with the memo model where there is one). */
export function extractUnits(ep: EpisodeRecorder, o: ExtractOptions): ExtractedUnit[] {
  const byTask = o.findBy === 'instruction';
  if (o.units === 'episodes') {
    const text = o.episodeText === 'trajectory' ? trajectoryText(ep, o.notes) : episodeText(ep, o.maxUnitChars, o.notes);
    return [{ id: ep.taskId, speaker: '', text, searchText: byTask ? ep.instruction : text, embedText: byTask ? ep.instruction : text, step: -1 }];
  }
  const full = ep.steps.map(stepText);
  const shown = full.map((t) => clipEnd(t, o.maxUnitChars));
  const read = o.indexFull ? full : shown;
  const out: ExtractedUnit[] = read.map((own, i) => {
    const around = o.units === 'windows' ? read.slice(Math.max(0, i - o.window), i + o.window + 1).join(' ') : own;
    return { ...stepMeta(ep, i), text: shown[i] as string, searchText: byTask ? `${ep.instruction}\n${around}` : around, embedText: own, step: i };
  });
  const note = ep.outcome.note;
  if (o.notes && note && ep.meta?.kind !== 'dialogue') {
    const text = clipEnd(`Feedback: ${note}`, o.maxUnitChars);
    out.push({ id: `${ep.taskId}#note`, speaker: '', text, searchText: `${ep.instruction}\n${o.indexFull ? note : text}`, embedText: text, step: -1 });
  }
  return out;
}
