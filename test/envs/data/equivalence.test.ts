// The generic data path on real data: one LoCoMo conversation written in the data format scores every named
// program exactly as the built-in LoCoMo environment does (the whole set, both splits: npm run bench:data).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselines } from '../../../api/evaluate.ts';
import { locomoToDataLines } from '../../../envs/data/from-locomo.ts';
import { DEFAULT_LOCOMO_DIR } from '../../../envs/locomo/environment.ts';
import { loadConversations } from '../../../envs/locomo/load.ts';
import { BASELINES } from '../../../memo-programs/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'data-equivalence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LoCoMo as data', () => {
  it('scores all seven named programs as the built-in LoCoMo environment does', async () => {
    mkdirSync(join(dir, 'locomo'));
    copyFileSync(join(DEFAULT_LOCOMO_DIR, '26.json'), join(dir, 'locomo', '26.json'));
    const file = join(dir, 'locomo.jsonl');
    writeFileSync(file, `${locomoToDataLines(loadConversations(join(dir, 'locomo')).conversations).join('\n')}\n`);
    const builtin = await baselines({ env: 'locomo', data: join(dir, 'locomo'), split: 'train', out: join(dir, 'a') });
    const data = await baselines({ env: `data:${file}`, split: 'train', out: join(dir, 'b') });
    expect(builtin.failures).toEqual([]);
    expect(data.failures).toEqual([]);
    const scores = (runs: typeof builtin) => Object.fromEntries(runs.rows.map((r) => [r.name, r.result.score]));
    expect(Object.keys(scores(data))).toEqual(BASELINES);
    for (const name of BASELINES) expect(scores(data)[name], name).toBeCloseTo(scores(builtin)[name] as number, 6);
    // Not vacuous: the programs differ from each other, and the tasks are the same questions.
    expect(new Set(Object.values(scores(data)).map((s) => s?.toFixed(3))).size).toBeGreaterThan(3);
    expect(data.rows[0]?.result.tasks.map((t) => t.taskId).sort()).toEqual(builtin.rows[0]?.result.tasks.map((t) => t.taskId).sort());
  }, 180_000);
});
