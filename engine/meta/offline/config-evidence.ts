// What the evidence says about a program edited through its exported config (Omni-SimpleMem, or any program with
// one): the diagnosis's direction (diagnose.ts: more recall when payloads are empty or the budget unused, smaller
// payloads when they are cut or slow) moves the settings whose names say they move recall, one step; a switch that
// keeps the outcome's feedback is turned on where update episodes carry notes.
import type { OfflineParent } from '../types.ts';
import type { Candidate } from './candidate.ts';
import type { ConfigLeaf } from './config-edit.ts';
import type { Finding } from './diagnose.ts';
import type { Reading } from './reading.ts';
import { pressure } from './structural.ts';

type Effect = 'up-gives-more' | 'down-gives-more' | 'neutral';

/** How a setting's name suggests it moves recall: counts, sizes and limits up; thresholds and minimums down. */
export function effectOf(path: string): Effect {
  const name = (path.split('.').pop() ?? path).toLowerCase();
  if (
    /^(max|top)|(k|count|limit|window|units|expanded|neighbors|seeds|hops|steps|items|chars|budget|records|traces)$/.test(
      name,
    )
  )
    return 'up-gives-more';
  if (/threshold|similarity|^min|reject|cutoff/.test(name)) return 'down-gives-more';
  return 'neutral';
}

/** A numeric setting one step up or down (×1.5 for counts, ±0.1 for shares); undefined when it cannot move. */
function step(leaf: ConfigLeaf, up: boolean): number | undefined {
  const v = leaf.value as number;
  if (Number.isInteger(v) && Math.abs(v) >= 1) {
    const next = up
      ? Math.max(v + 1, Math.round(v * 1.5))
      : Math.max(v >= 1 ? 1 : 0, Math.min(v - 1, Math.round(v / 1.5)));
    return next === v ? undefined : next;
  }
  if (v >= 0 && v <= 1) {
    const next = Math.round(Math.min(1, Math.max(0, v + (up ? 0.1 : -0.1))) * 1000) / 1000;
    return next === v ? undefined : next;
  }
  return Math.round((up ? v * 1.5 : v / 1.5) * 10_000) / 10_000;
}

export function configEvidence(ctx: OfflineParent, leaves: ConfigLeaf[], findings: Finding[], r: Reading): Candidate[] {
  const out: Candidate[] = [];
  const notes = r.shape?.notes ?? 0;
  if (notes >= 0.1) {
    const p = pressure(r);
    const missing = p.traced ? p.recall + p.cut + p.neighbour : 0.5;
    for (const l of leaves) {
      if (l.kind !== 'boolean' || l.value !== false || !/(^|\.)notes?$/i.test(l.path)) continue;
      out.push({
        mode: 'evidence',
        weight: 1 + 2 * notes + 2 * missing,
        why: `${Math.round(100 * notes)}% of update episodes carry the checker's note`,
        what: `${l.path} false → true (keep the outcome's feedback)`,
        edits: [{ kind: 'config', key: l.path, from: false, to: true }],
      });
    }
  }
  for (const f of findings) {
    if (f.direction === 'explore') continue;
    for (const l of leaves) {
      const e = effectOf(l.path);
      if (l.kind !== 'number' || e === 'neutral') continue;
      const up = (f.direction === 'more') === (e === 'up-gives-more');
      const to = step(l, up);
      if (to === undefined) continue;
      out.push({
        mode: 'evidence',
        weight: f.weight,
        why: `${f.rule} (${f.detail})`,
        what: `${l.path} ${String(l.value)} → ${to}`,
        edits: [{ kind: 'config', key: l.path, from: l.value, to }],
      });
    }
  }
  void ctx;
  return out;
}
