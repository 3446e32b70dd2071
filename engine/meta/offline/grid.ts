// The values worth trying for a declared tunable: a grid over its search range (geometric where the range spans an
// order of magnitude and more, even otherwise), each enum value, a flag's other value. A move from the current value
// goes to the next grid value on one side, so a setting is explored in steps that cover its range rather than by
// random nudges.
import type { Tunable } from './stage-catalogue.ts';

/** Grid points per numeric range. */
const POINTS = 5;

const round = (x: number, int: boolean) => (int ? Math.round(x) : Math.round(x * 100) / 100);

/** The grid of a numeric tunable's search range, ascending; enum values; a flag's two values. */
export function gridOf(t: Tunable): (number | string | boolean)[] {
  if (t.kind === 'bool') return [false, true];
  if (t.kind === 'enum') return [...t.values];
  const [lo, hi] = t.search;
  const int = t.kind === 'int';
  const geometric = lo > 0 && hi / lo >= 10;
  const out: number[] = [];
  for (let i = 0; i < POINTS; i++) {
    const f = i / (POINTS - 1);
    out.push(round(geometric ? lo * (hi / lo) ** f : lo + (hi - lo) * f, int));
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/**
 * Grid values other than `current`, nearest first on each side: for a number, by how many grid steps away they are
 * (above and below alternate); for an enum or a flag, in declared order. Each with its side ('up' above, 'down' below,
 * 'other' for a choice).
 */
export function movesFrom(
  t: Tunable,
  current: number | string | boolean,
): { value: number | string | boolean; side: 'up' | 'down' | 'other'; distance: number }[] {
  const grid = gridOf(t);
  if (t.kind === 'bool' || t.kind === 'enum')
    return grid.filter((v) => v !== current).map((value, i) => ({ value, side: 'other' as const, distance: i + 1 }));
  const v = Number(current);
  const up = (grid as number[]).filter((g) => g > v + 1e-9);
  const down = (grid as number[]).filter((g) => g < v - 1e-9).reverse();
  return [
    ...up.map((value, i) => ({ value, side: 'up' as const, distance: i + 1 })),
    ...down.map((value, i) => ({ value, side: 'down' as const, distance: i + 1 })),
  ].sort((a, b) => a.distance - b.distance);
}

/** One step further than `to` from `from`, within the tunable's bounds: a setting that helped, pushed on. */
export function further(t: Tunable, from: number, to: number): number | undefined {
  if (t.kind !== 'int' && t.kind !== 'float') return undefined;
  const next = from > 0 && to > 0 ? to * (to / from) : to + (to - from);
  const bounded = round(Math.min(t.max, Math.max(t.min, next)), t.kind === 'int');
  return bounded === to || !Number.isFinite(bounded) ? undefined : bounded;
}
