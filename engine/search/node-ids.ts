// Node ids name folders (programs/<id>/, evidence/<id>/), so they are safe names, never raw input: a seed given as
// a path becomes seed-<its last segment, sanitised>, and two seeds that would share an id get -2, -3, …. Seed nodes
// stand for the designs they were made from (designOf).
import { basename, resolve } from 'node:path';
import { PROGRAMS } from '../../memo-programs/registry.ts';
import { toSafeName, uniqueName } from '../../foundation/safe-path.ts';
import type { JournalEvent } from './journal-events.ts';
import type { SearchTree } from './tree.ts';

/** The node id of each seed, in order: `seed-<name>` for a named program, `seed-<folder or file name>` for a path. */
export function seedNodeIds(seeds: string[]): string[] {
  const taken = new Set(['root']);
  return seeds.map((seed) => {
    const named = PROGRAMS.some((p) => p.name === seed);
    const base = named ? seed : basename(resolve(seed)).replace(/\.ts$/i, '');
    const id = uniqueName(toSafeName(`seed-${base}`, 'seed'), (c) => taken.has(c));
    taken.add(id);
    return id;
  });
}

/**
 * The standard design (a named program) a node descends from: its seed's, found by walking up the tree; seeds are the
 * named programs the run was given (`seeds`) or the screen kept. Undefined for the root and for seeds given as paths.
 */
export function designOf(
  tree: SearchTree,
  seeds: string[],
  screen: Extract<JournalEvent, { type: 'screen' }> | undefined,
  id: string,
): string | undefined {
  const named = new Map<string, string>();
  seedNodeIds(seeds).forEach((node, i) => named.set(node, seeds[i] as string));
  for (const r of screen?.results ?? []) named.set(r.node, r.design);
  for (let node = tree.nodes.get(id); node; node = node.parent ? tree.nodes.get(node.parent) : undefined) {
    const name = named.get(node.id);
    if (name !== undefined) return PROGRAMS.some((p) => p.name === name) ? name : undefined;
  }
  return undefined;
}
