// Each stage's tunables are declared once beside it: the stage runs with the declared default, clamps a value to the
// declared bounds, and every stage a pipeline can import is declared, with the options its call accepts.
import { describe, expect, it } from 'vitest';
import * as pipeline from '../../../memo-programs/lib/pipeline.ts';
import { STAGE_DECLARATIONS, STORE_OPTIONS, UnitStore } from '../../../memo-programs/lib/pipeline.ts';
import { choice, float, int, resolveOptions, ROLE_ORDER } from '../../../memo-programs/lib/tunables.ts';
import { bm25Stage } from '../../../memo-programs/lib/search-stages.ts';
import { stateFor } from '../../support/pipeline-store.ts';

describe('tunables', () => {
  it('resolve to the default when unset or unusable, clamp to the bounds, round whole numbers', () => {
    const options = { k: int(40, [1, 1000], [5, 200]), w: float(0.5, [0, 10]), how: choice('a', ['a', 'b']) };
    expect(resolveOptions(options, {})).toEqual({ k: 40, w: 0.5, how: 'a' });
    expect(resolveOptions(options, { k: 5000, w: -3, how: 'b' })).toEqual({ k: 1000, w: 0, how: 'b' });
    expect(resolveOptions(options, { k: 12.6, w: Number.NaN, how: 'c' as 'a' })).toEqual({ k: 13, w: 0.5, how: 'a' });
  });

  it('are what a stage runs with: bm25Stage finds k units, k clamped to its declared bounds', async () => {
    const state = await stateFor('Ben hiking bear puppy pottery sunset Biscuit');
    await bm25Stage({ k: 0 })(state);
    expect(state.lists[0]?.labels).toHaveLength(1);
    const declared = STAGE_DECLARATIONS.find((d) => d.name === 'bm25Stage');
    expect(declared?.options.k).toMatchObject({ kind: 'int', default: 40, min: 1, max: 1000 });
  });

  it('are declared for every stage the pipeline exports, once, with a role in pipeline order and a search range inside the bounds', () => {
    const names = STAGE_DECLARATIONS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    const exported = Object.entries(pipeline).filter(([, v]) => typeof v === 'function' && /^[a-z]/.test(v.name) && !['runStages', 'named', 'taskKind', 'routeByKind'].includes(v.name));
    for (const [name, make] of exported) {
      expect(names, name).toContain(name);
      expect((make as () => { stageName?: string })().stageName, name).toBe(name);
    }
    let last = 0;
    for (const d of STAGE_DECLARATIONS) {
      const at = ROLE_ORDER.indexOf(d.role);
      expect(at, `${d.name} comes after a later role`).toBeGreaterThanOrEqual(last);
      last = at;
      for (const [k, t] of Object.entries(d.options)) {
        if (t.kind !== 'int' && t.kind !== 'float') continue;
        expect(t.search[0], `${d.name}.${k}`).toBeGreaterThanOrEqual(t.min);
        expect(t.search[1], `${d.name}.${k}`).toBeLessThanOrEqual(t.max);
      }
    }
  });

  it("declare the store's options, which a store resolves the same way", () => {
    const store = new UnitStore({ units: 'items', window: 99, maxUnitChars: 5 });
    expect(store.options).toMatchObject({ units: 'items', window: STORE_OPTIONS.window.max, maxUnitChars: STORE_OPTIONS.maxUnitChars.min, index: 'both', tokenizer: 'stemmed' });
  });
});
