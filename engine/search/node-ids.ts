// Node ids name folders (programs/<id>/, evidence/<id>/), so they are safe names, never raw input: a seed given as
// a path becomes seed-<its last segment, sanitised>, and two seeds that would share an id get -2, -3, ….
import { basename, resolve } from 'node:path';
import { PROGRAMS } from '../../memo-programs/registry.ts';
import { toSafeName, uniqueName } from '../../foundation/safe-path.ts';

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
