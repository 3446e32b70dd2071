// Budget packing: the best hits, each whole (a unit that does not fit is skipped, never cut), until the payload's
// character budget is full. Grouped layout: rendered grouped by time, by source (in the order first hit, or in the
// episodes' order), or in rank order; compact (a date or short heading per group, one line per unit) or plain (full
// headings with outcomes, blank lines between groups), optionally with each episode's feedback (its outcome's note)
// under its heading. Blocks layout: each unit a block of its own in rank order (whole episodes, distilled items),
// optionally headed by its rank and similarity, as trajectory retrieval shows past episodes.
import type { Json } from '../contract.ts';
import { ensureHits } from './fusion.ts';
import { type Hit, type RetrievalState, named, type Stage } from './retrieval-state.ts';
import { choice, declareStage, fixed, flag, int, type ResolvedOptions } from './tunables.ts';
import type { SourceEpisode, UnitStore } from './unit-store.ts';

export type Rendering = 'compact' | 'plain';
/** time: groups in time order; source: in the order their first unit ranks; episode: in the order added; rank: no groups. */
export type Grouping = 'time' | 'source' | 'rank' | 'episode';
export type Layout = 'grouped' | 'blocks';

export const PACK_WHOLE = declareStage({
  name: 'packWhole',
  role: 'pack',
  summary: 'whole units, best first, within the budget: grouped under their episode, or as blocks',
  options: {
    layout: choice<Layout>('grouped', ['grouped', 'blocks']),
    render: choice<Rendering>('compact', ['compact', 'plain']),
    groupBy: choice<Grouping>('time', ['time', 'source', 'rank', 'episode']),
    /** Each shown episode's feedback (its outcome's note) under its heading (grouped layout). */
    notes: flag(false),
    /** Blocks layout: a heading "### Past episode <rank> (similarity <s>)" above each block. */
    header: choice<'none' | 'similarity'>('none', ['none', 'similarity']),
    /** Blocks layout: skip a block that does not fit (and try the next), or stop at it. */
    fit: fixed(choice<'skip' | 'stop'>('skip', ['skip', 'stop'])),
    /** Most units shown (default: as many as fit). */
    maxUnits: int(Infinity, [1, 100_000], [1, 200]),
    /** Characters to use, when less than the budget. */
    maxChars: int(Infinity, [100, 10_000_000], [500, 50_000]),
    /** Packing stops when fewer characters than this are left. */
    room: fixed(int(20, [0, 10_000])),
  },
});

export interface PackOptions {
  layout?: Layout;
  render?: Rendering;
  groupBy?: Grouping;
  notes?: boolean;
  header?: 'none' | 'similarity';
  fit?: 'skip' | 'stop';
  maxUnits?: number;
  maxChars?: number;
  room?: number;
  /** Blocks layout: a line shown above the blocks when any is shown ("Similar past tasks, most similar first:"). */
  intro?: string;
  /** Whether the intro counts against the budget (default true; trajectory retrieval's does not). */
  introInBudget?: boolean;
}

type Resolved = ResolvedOptions<typeof PACK_WHOLE.options>;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function dateText(time: number): string {
  const d = new Date(time);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * A source's heading: a dialogue's date (compact) or title; a past task's instruction and outcome — whether it
 * succeeded is what makes its steps worth following or avoiding, so even the compact form keeps it (plain adds the
 * reward). With `notes`, a past task's feedback follows on a line of its own.
 */
export function sourceHeading(source: SourceEpisode, render: Rendering, notes = false): string {
  if (source.dialogue)
    return render === 'compact' && source.time > 0 ? `[${dateText(source.time)}]` : `[${source.instruction}]`;
  const instruction =
    render === 'compact' && source.instruction.length > 160
      ? `${source.instruction.slice(0, 159)}…`
      : source.instruction;
  const outcome = source.success ? 'succeeded' : 'failed';
  const head =
    render === 'compact'
      ? `[${instruction} — ${outcome}]`
      : `[${instruction} — ${outcome} (reward ${source.reward.toFixed(2)})]`;
  return notes && source.note ? `${head}\nFeedback: ${source.note}` : head;
}

/** Whether units carry their own heading (whole episodes, distilled items). */
const ownHeadings = (store: UnitStore) => store.options.units === 'episodes' || store.options.units === 'items';

/** Renders chosen units (by label) grouped as asked; episode units carry their own heading. */
export function renderPacked(
  labels: number[],
  store: UnitStore,
  render: Rendering,
  groupBy: Grouping,
  notes = false,
): string {
  const sep = render === 'compact' ? '\n' : '\n\n';
  if (ownHeadings(store)) return labels.map((l) => store.units[l]?.text ?? '').join('\n\n');
  if (groupBy === 'rank') {
    return labels
      .map((l) => {
        const u = store.units[l];
        return u ? `${sourceHeading(store.sources[u.source] as SourceEpisode, render, notes)} ${u.text}` : '';
      })
      .join(sep);
  }
  const groups = new Map<number, number[]>();
  for (const l of labels) {
    const s = store.units[l]?.source ?? 0;
    groups.set(s, [...(groups.get(s) ?? []), l]);
  }
  const order = [...groups.keys()];
  if (groupBy === 'time') order.sort((a, b) => (store.sources[a]?.time ?? 0) - (store.sources[b]?.time ?? 0) || a - b);
  if (groupBy === 'episode') order.sort((a, b) => a - b);
  return order
    .map((s) => {
      const lines = (groups.get(s) as number[])
        .sort((a, b) => (store.units[a]?.pos ?? 0) - (store.units[b]?.pos ?? 0))
        .map((l) => store.units[l]?.text ?? '');
      return [sourceHeading(store.sources[s] as SourceEpisode, render, notes), ...lines].join('\n');
    })
    .join(sep);
}

/** Whole units in rank order while they fit in `maxChars` (each costs its line, plus its group's heading once). */
export function chooseWhole(
  hits: Hit[],
  store: UnitStore,
  maxChars: number,
  render: Rendering,
  groupBy: Grouping,
  maxUnits: number,
  room = 20,
  notes = false,
): number[] {
  const chosen: number[] = [];
  const opened = new Set<number>();
  const sepLength = render === 'compact' ? 1 : 2;
  let used = 0;
  for (const h of hits) {
    if (chosen.length >= maxUnits || maxChars - used < room) break;
    const u = store.units[h.label];
    if (!u) continue;
    const heading = sourceHeading(store.sources[u.source] as SourceEpisode, render, notes).length;
    const cost = ownHeadings(store)
      ? u.text.length + 2
      : groupBy === 'rank'
        ? heading + 1 + u.text.length + sepLength
        : u.text.length + 1 + (opened.has(u.source) ? 0 : heading + sepLength);
    if (used + cost > maxChars) continue;
    chosen.push(h.label);
    opened.add(u.source);
    used += cost;
  }
  return chosen;
}

/** A unit as a block of its own: its text (under its episode's heading when it has none of its own), headed by rank and similarity if asked. */
function blockOf(h: Hit, rank: number, store: UnitStore, o: Resolved): string {
  const u = store.units[h.label];
  if (!u) return '';
  const body = ownHeadings(store)
    ? u.text
    : `${sourceHeading(store.sources[u.source] as SourceEpisode, o.render, o.notes)}\n${u.text}`;
  return o.header === 'similarity'
    ? `### Past episode ${rank + 1} (similarity ${(h.raw ?? h.score).toFixed(2)})\n${body}`
    : body;
}

/** Blocks in rank order while they fit: a block that does not fit is skipped (fit 'skip') or ends the packing ('stop'). */
function chooseBlocks(
  hits: Hit[],
  store: UnitStore,
  maxChars: number,
  o: Resolved,
): { labels: number[]; blocks: string[] } {
  const labels: number[] = [];
  const blocks: string[] = [];
  let used = 0;
  for (const [rank, h] of hits.entries()) {
    if (labels.length >= o.maxUnits || maxChars - used < o.room) break;
    const block = blockOf(h, rank, store, o);
    if (!block) continue;
    // 'skip' counts the separator after a block before taking it (ReasoningBank); 'stop' counts it after (trajectory retrieval).
    if (used + block.length + (o.fit === 'skip' ? 2 : 0) > maxChars) {
      if (o.fit === 'stop') break;
      continue;
    }
    labels.push(h.label);
    blocks.push(block);
    used += block.length + 2;
  }
  return { labels, blocks };
}

/**
 * Stage: writes the payload — whole units, best first, within the budget (less the preamble and a blank line, when a
 * stage wrote one); metadata names shown and passed-over units.
 * @reads lists, hits, store, trace, preamble
 * @writes payload (text: the preamble, then the chosen units grouped as asked or as blocks; images: none; metadata: { units: chosen units' ids, via, cut: ids of better-ranked units left out, stages: trace }), hits, lists (fused by ensureHits first when pending)
 * @ids unit ids are StoredUnit.id: the turn's own id (meta.turns[i].id) when the episode gives one, else "<taskId>#<i>"
 */
export function packWhole(options: PackOptions = {}): Stage {
  const o = PACK_WHOLE.resolve(options);
  const intro = typeof options.intro === 'string' ? options.intro.slice(0, 2000) : '';
  const introInBudget = options.introInBudget !== false;
  return named('packWhole', (state: RetrievalState) => {
    const hits = ensureHits(state);
    const reserved = state.preamble === undefined ? 0 : state.preamble.length + 2;
    const introCost = intro && introInBudget ? intro.length + 2 : 0;
    const budget = Math.min(state.ctx.budget.maxChars, o.maxChars) - reserved - introCost;
    let chosen: number[];
    let text: string;
    if (o.layout === 'blocks') {
      const packed = chooseBlocks(hits, state.store, budget, o);
      chosen = packed.labels;
      text = packed.blocks.join('\n\n');
    } else {
      chosen = chooseWhole(hits, state.store, budget, o.render, o.groupBy, o.maxUnits, o.room, o.notes);
      text = renderPacked(chosen, state.store, o.render, o.groupBy, o.notes);
      while (text.length > budget && chosen.length) {
        chosen.pop();
        text = renderPacked(chosen, state.store, o.render, o.groupBy, o.notes);
      }
    }
    if (intro && text) text = `${intro}\n\n${text}`;
    if (state.preamble !== undefined) text = [state.preamble, text].filter(Boolean).join('\n\n');
    const shown = new Set(chosen);
    const via = new Map(hits.map((h) => [h.label, h.via]));
    const cut = hits
      .slice(0, Math.max(10, 3 * chosen.length))
      .filter((h) => !shown.has(h.label))
      .slice(0, 50);
    const metadata: Json = {
      units: chosen.map((l) => state.store.units[l]?.id ?? String(l)),
      via: chosen.map((l) => via.get(l) ?? ''),
      cut: cut.map((h) => state.store.units[h.label]?.id ?? String(h.label)),
      stages: state.trace.slice(0, 50),
    };
    state.payload = { text, images: [], metadata };
  });
}
