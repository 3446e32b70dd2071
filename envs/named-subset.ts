// Built-in environments made of named parts (visual families, web sites): `--env visual:charts,mazes` picks some.
import type { LoadContext } from '../engine/environment/define.ts';

/** The parts named after the colon, or undefined for all; --data is refused, since these environments make their own tasks. */
export function namedParts(ctx: LoadContext, env: string, why: string): string[] | undefined {
  if (ctx.data) throw new Error(`environment "${env}" ${why}; --data is not used`);
  const names = ctx.arg?.split(',').map((s) => s.trim()).filter(Boolean);
  return names?.length ? names : undefined;
}

/** The parts with these names (default all), or an error naming the unknown ones and what there is. */
export function pickNamed<T extends { name: string }>(all: readonly T[], names: readonly string[] | undefined, kind: { one: string; many: string }): T[] {
  if (!names) return [...all];
  const unknown = names.filter((n) => !all.some((p) => p.name === n));
  if (unknown.length) throw new Error(`unknown ${unknown.length > 1 ? kind.many : kind.one} ${unknown.join(', ')}; available: ${all.map((p) => p.name).join(', ')}`);
  return all.filter((p) => names.includes(p.name));
}
