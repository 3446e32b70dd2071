// Edits that helped, extended: a setting whose move made this parent better is pushed one step further the same way;
// an edit that made another program better (a sibling first: two helpers combined) is carried over to this parent,
// which is how the best node gets what helped elsewhere. Read from the tree's history (lessons.ts), so a resumed
// search extends the same edits.
import type { Edit } from '../types.ts';
import type { Candidate } from './candidate.ts';
import { further } from './grid.ts';
import { changes, identity, type Lessons } from './lessons.ts';
import { STAGES, STORE_OPTIONS } from './stage-catalogue.ts';

/** Helpers carried over at most (the best first). */
const MAX_CARRIED = 12;

/** Kinds an edit can be carried to another program by (a design's start or a model's rewrite cannot). */
const CARRIED: ReadonlySet<Edit['kind']> = new Set([
  'config',
  'stage-insert',
  'stage-remove',
  'stage-swap',
  'stage-tune',
  'route',
  'store',
  'crossover-stage',
]);

/** One step further the same way, for a numeric setting that moved; undefined for anything else. */
function pushed(e: Edit): Edit | undefined {
  if (typeof e.from !== 'number' && typeof e.from !== 'string') return undefined;
  const from = Number(e.from);
  const to = Number(e.to);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from === to || e.from === '') return undefined;
  let next: number | undefined;
  if (e.kind === 'stage-tune') {
    const [stage, option] = e.key.split('.');
    const t = STAGES[stage ?? '']?.options[option ?? ''];
    next = t ? further(t, from, to) : undefined;
  } else if (e.kind === 'store') {
    const t = STORE_OPTIONS[e.key];
    next = t ? further(t, from, to) : undefined;
  } else if (e.kind === 'config') {
    const raw = from > 0 && to > 0 ? to * (to / from) : to + (to - from);
    next = Number.isInteger(from) && Number.isInteger(to) ? Math.round(raw) : Math.round(raw * 1000) / 1000;
    // A share (0..1) stays one.
    if (from >= 0 && from <= 1 && to >= 0 && to <= 1 && !Number.isInteger(to)) next = Math.min(1, Math.max(0, next));
    if (next === to) next = undefined;
  }
  if (next === undefined) return undefined;
  return { kind: e.kind, key: e.key, from: to, to: e.kind === 'store' ? String(next) : next };
}

export function extendCandidates(lessons: Lessons, node: string): Candidate[] {
  const out: Candidate[] = [];
  // This parent's own last edit helped: its settings pushed further.
  const own = lessons.lineage.at(-1);
  if (own && own.node === node && own.delta > 0) {
    for (const e of changes(own.edits)) {
      const next = pushed(e);
      if (next)
        out.push({
          mode: 'extend',
          weight: 2 + 20 * own.delta,
          why: `${e.key} ${String(e.from)} → ${String(e.to)} made ${node} better by ${own.delta.toFixed(3)}`,
          what: `${e.key} further: ${String(next.from)} → ${String(next.to)}`,
          edits: [next],
        });
    }
  }
  // What helped elsewhere, carried here: not already on this parent's way from its seed.
  const onTheWay = new Set(lessons.lineage.map((l) => identity(l.edits)));
  const sibling = lessons.parentOf.get(node);
  let carried = 0;
  for (const h of lessons.helped) {
    if (carried >= MAX_CARRIED) break;
    const edits = changes(h.edits);
    if (!edits.length || edits.some((e) => !CARRIED.has(e.kind)) || onTheWay.has(identity(edits)) || h.node === node)
      continue;
    carried++;
    const fromSibling = sibling !== undefined && h.parent === sibling;
    out.push({
      mode: 'extend',
      weight: (1.5 + 20 * h.delta) * (fromSibling ? 1.5 : 1),
      why: `it made ${h.node} better than ${h.parent} by ${h.delta.toFixed(3)}${fromSibling ? ' (a sibling: the two helpers combined)' : ''}`,
      what: `carry over ${edits.map((e) => `${e.kind} ${e.key} → ${String(e.to)}`).join(', ')}`,
      edits,
    });
  }
  return out;
}
