import { describe, expect, it } from 'vitest';
import { parseEnvSpec } from '../../../engine/environment/env-spec.ts';

const known = (n: string) => ['locomo', 'visual', 'data'].includes(n);

describe('--env specs', () => {
  it('reads registered names with their options', () => {
    expect(parseEnvSpec('locomo', known)).toEqual({ kind: 'name', name: 'locomo' });
    expect(parseEnvSpec('visual:charts,mazes', known)).toEqual({ kind: 'name', name: 'visual', arg: 'charts,mazes' });
    expect(parseEnvSpec('data:./my data/qa.jsonl', known)).toEqual({ kind: 'name', name: 'data', arg: './my data/qa.jsonl' });
  });

  it('reads module paths, with options after the extension only', () => {
    expect(parseEnvSpec('./my-env.ts', known)).toEqual({ kind: 'path', path: './my-env.ts' });
    expect(parseEnvSpec('/abs/x:y/env.js:hard', known)).toEqual({ kind: 'path', path: '/abs/x:y/env.js', arg: 'hard' });
    expect(parseEnvSpec('env.mjs', known)).toEqual({ kind: 'path', path: 'env.mjs' });
  });

  it('reads unregistered bare names as packages', () => {
    expect(parseEnvSpec('my-bench', known)).toEqual({ kind: 'package', name: 'my-bench' });
    expect(parseEnvSpec('@lab/bench:small', known)).toEqual({ kind: 'package', name: '@lab/bench', arg: 'small' });
  });

  it('says a data file named alone is given as data:<file>', () => {
    expect(() => parseEnvSpec('./bench/qa.jsonl', known)).toThrow('"./bench/qa.jsonl" is a data file, not an environment: give it as data:./bench/qa.jsonl');
    expect(() => parseEnvSpec('qa.JSON', known)).toThrow(/give it as data:qa\.JSON$/);
  });

  it('refuses empty, huge and control-character specs with a message', () => {
    expect(() => parseEnvSpec('', known)).toThrow(/empty/);
    expect(() => parseEnvSpec('x'.repeat(5000), known)).toThrow(/at most 4096/);
    expect(() => parseEnvSpec('loc\nomo', known)).toThrow(/control characters/);
    expect(() => parseEnvSpec('not a name!', known)).toThrow(/neither a registered environment/);
  });
});
