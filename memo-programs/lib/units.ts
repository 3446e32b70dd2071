// Retrieval units from episodes, and rendering of retrieved units under a character budget. A unit is one step
// (a dialogue turn, an action with its result, an image caption), keyed by its episode and position, so a
// retrieved set can be shown grouped by episode, in order, with the episode's heading (task, date, outcome).
import type { EpisodeRecorder, Step } from '../contract.ts';

export interface Unit {
  /** `${episode}#${index}` */
  id: string;
  episode: string;
  index: number;
  /** What the step said or did, with its result or image caption. */
  text: string;
}

export interface EpisodeHeading {
  episode: string;
  heading: string;
  /** Episode order, for rendering in time order. */
  order: number;
}

export function stepText(step: Step): string {
  let text = step.action;
  if (step.result) text += ` -> ${step.result}`;
  if (step.error) text += ` [error: ${step.error}]`;
  const obs = step.observation?.text;
  if (obs) text += ` ${obs}`;
  const captions = (step.observation?.images ?? []).map((i) => i.caption).filter(Boolean);
  if (captions.length) text += ` [images: ${captions.join('; ')}]`;
  return text;
}

export function episodeUnits(ep: EpisodeRecorder): Unit[] {
  return ep.steps.map((s) => ({ id: `${ep.taskId}#${s.index}`, episode: ep.taskId, index: s.index, text: stepText(s) }));
}

/** Episodes whose meta.kind is 'dialogue' are conversations, not tasks: they have no outcome worth showing. */
export function isDialogue(ep: EpisodeRecorder): boolean {
  return ep.meta.kind === 'dialogue';
}

export function episodeHeading(ep: EpisodeRecorder, order: number): EpisodeHeading {
  const outcome = isDialogue(ep) ? '' : ` — ${ep.outcome.success ? 'succeeded' : 'failed'} (reward ${ep.outcome.reward.toFixed(2)})`;
  return { episode: ep.taskId, heading: `[${ep.instruction}${outcome}]`, order };
}

/**
 * Renders units grouped by episode (episodes and units in their original order) until `maxChars` is reached.
 * Units are admitted in the order given (most relevant first); a unit that does not fit is skipped.
 */
export function renderUnits(
  ranked: Unit[],
  headings: Map<string, EpisodeHeading>,
  maxChars: number,
  options: { preamble?: string; maxUnitChars?: number } = {},
): { text: string; shown: Unit[] } {
  const maxUnit = options.maxUnitChars ?? 1200;
  const preamble = options.preamble ? `${options.preamble}\n\n` : '';
  let used = preamble.length;
  const chosen: Unit[] = [];
  const openEpisodes = new Set<string>();
  for (const unit of ranked) {
    const line = unit.text.length > maxUnit ? `${unit.text.slice(0, maxUnit - 1)}…` : unit.text;
    const heading = headings.get(unit.episode);
    const extra = line.length + 1 + (openEpisodes.has(unit.episode) ? 0 : (heading?.heading.length ?? 0) + 2);
    if (used + extra > maxChars) continue;
    used += extra;
    openEpisodes.add(unit.episode);
    chosen.push({ ...unit, text: line });
  }
  const byEpisode = new Map<string, Unit[]>();
  for (const u of chosen) {
    const list = byEpisode.get(u.episode) ?? [];
    list.push(u);
    byEpisode.set(u.episode, list);
  }
  const blocks = [...byEpisode.entries()]
    .sort(([a], [b]) => (headings.get(a)?.order ?? 0) - (headings.get(b)?.order ?? 0))
    .map(([ep, units]) => {
      const lines = units.sort((x, y) => x.index - y.index).map((u) => u.text);
      const heading = headings.get(ep)?.heading;
      return heading ? `${heading}\n${lines.join('\n')}` : lines.join('\n');
    });
  return { text: blocks.length ? preamble + blocks.join('\n\n') : '', shown: chosen };
}
