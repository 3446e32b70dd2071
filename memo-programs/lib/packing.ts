// Budget packing: the best hits, each whole (a unit that does not fit is skipped, never cut), until the payload's
// character budget is full, rendered grouped by time, by source, or in rank order; compact (a date or short heading
// per group, one line per unit) or plain (full headings with outcomes, blank lines between groups).
import type { Json } from '../contract.ts';
import { ensureHits } from './fusion.ts';
import { type Hit, type RetrievalState, named, type Stage } from './retrieval-state.ts';
import type { SourceEpisode, UnitStore } from './unit-store.ts';

export type Rendering = 'compact' | 'plain';
export type Grouping = 'time' | 'source' | 'rank';

export interface PackOptions {
  render?: Rendering;
  groupBy?: Grouping;
  /** Most units shown (default: as many as fit). */
  maxUnits?: number;
  /** Characters to use, when less than the budget. */
  maxChars?: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function dateText(time: number): string {
  const d = new Date(time);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * A source's heading: a dialogue's date (compact) or title; a past task's instruction and outcome — whether it
 * succeeded is what makes its steps worth following or avoiding, so even the compact form keeps it (plain adds the
 * reward).
 */
export function sourceHeading(source: SourceEpisode, render: Rendering): string {
  if (source.dialogue) return render === 'compact' && source.time > 0 ? `[${dateText(source.time)}]` : `[${source.instruction}]`;
  const instruction = render === 'compact' && source.instruction.length > 160 ? `${source.instruction.slice(0, 159)}…` : source.instruction;
  const outcome = source.success ? 'succeeded' : 'failed';
  return render === 'compact' ? `[${instruction} — ${outcome}]` : `[${instruction} — ${outcome} (reward ${source.reward.toFixed(2)})]`;
}

/** Renders chosen units (by label) grouped as asked; episode units carry their own heading. */
export function renderPacked(labels: number[], store: UnitStore, render: Rendering, groupBy: Grouping): string {
  const sep = render === 'compact' ? '\n' : '\n\n';
  const ownHeadings = store.options.units === 'episodes';
  if (ownHeadings) return labels.map((l) => store.units[l]?.text ?? '').join('\n\n');
  if (groupBy === 'rank') {
    return labels.map((l) => {
      const u = store.units[l];
      return u ? `${sourceHeading(store.sources[u.source] as SourceEpisode, render)} ${u.text}` : '';
    }).join(sep);
  }
  const groups = new Map<number, number[]>();
  for (const l of labels) {
    const s = store.units[l]?.source ?? 0;
    groups.set(s, [...(groups.get(s) ?? []), l]);
  }
  const order = [...groups.keys()];
  if (groupBy === 'time') order.sort((a, b) => (store.sources[a]?.time ?? 0) - (store.sources[b]?.time ?? 0) || a - b);
  return order
    .map((s) => {
      const lines = (groups.get(s) as number[]).sort((a, b) => (store.units[a]?.pos ?? 0) - (store.units[b]?.pos ?? 0)).map((l) => store.units[l]?.text ?? '');
      return [sourceHeading(store.sources[s] as SourceEpisode, render), ...lines].join('\n');
    })
    .join(sep);
}

/** Whole units in rank order while they fit in `maxChars` (each costs its line, plus its group's heading once). */
export function chooseWhole(hits: Hit[], store: UnitStore, maxChars: number, render: Rendering, groupBy: Grouping, maxUnits: number): number[] {
  const chosen: number[] = [];
  const opened = new Set<number>();
  const sepLength = render === 'compact' ? 1 : 2;
  let used = 0;
  for (const h of hits) {
    if (chosen.length >= maxUnits || maxChars - used < 20) break;
    const u = store.units[h.label];
    if (!u) continue;
    const heading = sourceHeading(store.sources[u.source] as SourceEpisode, render).length;
    const cost = store.options.units === 'episodes' ? u.text.length + 2 : groupBy === 'rank' ? heading + 1 + u.text.length + sepLength : u.text.length + 1 + (opened.has(u.source) ? 0 : heading + sepLength);
    if (used + cost > maxChars) continue;
    chosen.push(h.label);
    opened.add(u.source);
    used += cost;
  }
  return chosen;
}

/**
 * Stage: writes the payload — whole units, best first, within the budget; metadata names shown and passed-over units.
 * @reads lists, hits, store, trace
 * @writes payload (text: the chosen units grouped as asked; images: none; metadata: { units: chosen units' ids, via, cut: ids of better-ranked units left out, stages: trace }), hits, lists (fused by ensureHits first when pending)
 * @ids unit ids are StoredUnit.id: the turn's own id (meta.turns[i].id) when the episode gives one, else "<taskId>#<i>"
 */
export function packWhole(options: PackOptions = {}): Stage {
  const render = options.render ?? 'compact';
  const groupBy = options.groupBy ?? 'time';
  return named('packWhole', (state: RetrievalState) => {
    const hits = ensureHits(state);
    const budget = Math.min(state.ctx.budget.maxChars, options.maxChars ?? Infinity);
    const chosen = chooseWhole(hits, state.store, budget, render, groupBy, options.maxUnits ?? Infinity);
    let text = renderPacked(chosen, state.store, render, groupBy);
    while (text.length > budget && chosen.length) {
      chosen.pop();
      text = renderPacked(chosen, state.store, render, groupBy);
    }
    const shown = new Set(chosen);
    const via = new Map(hits.map((h) => [h.label, h.via]));
    const cut = hits.slice(0, Math.max(10, 3 * chosen.length)).filter((h) => !shown.has(h.label)).slice(0, 50);
    const metadata: Json = {
      units: chosen.map((l) => state.store.units[l]?.id ?? String(l)),
      via: chosen.map((l) => via.get(l) ?? ''),
      cut: cut.map((h) => state.store.units[h.label]?.id ?? String(h.label)),
      stages: state.trace.slice(0, 50),
    };
    state.payload = { text, images: [], metadata };
  });
}
