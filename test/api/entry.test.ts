// The package's entry (index.js) and the automemo an environment module gets when it has none of its own
// (api/running-automemo.js) list the API's names by hand: both must name exactly what api/index.ts exports.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../../api/index.ts';
import { repoRoot } from '../../foundation/paths.ts';

/** The names a file destructures in its `export const { … } = …;`. */
function listed(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const block = /export const \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return block.split(',').map((n) => n.trim()).filter(Boolean).sort();
}

describe('the names automemo is imported by', () => {
  const exported = Object.keys(api).sort();
  it('running-automemo.js gives an environment module every value the API exports', () => {
    expect(listed('api/running-automemo.js')).toEqual(exported);
  });
  it('index.js gives a library user every function and class of the API', () => {
    expect(listed('index.js')).toEqual(exported.filter((n) => typeof (api as Record<string, unknown>)[n] === 'function'));
  });
});
