// LoCoMo through the generic data path: the shipped conversations written in the data format
// (envs/data/from-locomo.ts) must score every named program as the built-in LoCoMo environment does, on both
// splits, within ±0.005. Prints one row per program and split, and exits 1 when a row is off.
//   npm run bench:data
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselines } from '../api/evaluate.ts';
import { locomoToDataLines } from '../envs/data/from-locomo.ts';
import { defaultLocomoDir } from '../envs/locomo/environment.ts';
import { loadConversations } from '../envs/locomo/load.ts';
import { BASELINES } from '../memo-programs/registry.ts';

const TOLERANCE = 0.005;
const dir = mkdtempSync(join(tmpdir(), 'data-equivalence-'));
const file = join(dir, 'locomo.jsonl');
writeFileSync(file, `${locomoToDataLines(loadConversations(defaultLocomoDir()).conversations).join('\n')}\n`);

let off = 0;
const started = Date.now();
process.stdout.write(`LoCoMo (${defaultLocomoDir()}) built-in vs data:${file}, offline evidence recall, ${BASELINES.length} programs\n\n`);
process.stdout.write(`${'program'.padEnd(22)}${'split'.padEnd(7)}${'locomo'.padStart(8)}${'data'.padStart(8)}${'diff'.padStart(9)}\n`);
for (const split of ['train', 'test'] as const) {
  const [builtin, data] = [
    await baselines({ env: 'locomo', split, out: join(dir, `locomo-${split}`) }),
    await baselines({ env: `data:${file}`, split, out: join(dir, `data-${split}`) }),
  ];
  for (const name of BASELINES) {
    const a = builtin.rows.find((r) => r.name === name)?.result.score ?? undefined;
    const b = data.rows.find((r) => r.name === name)?.result.score ?? undefined;
    const diff = a === undefined || b === undefined ? NaN : b - a;
    if (!(Math.abs(diff) <= TOLERANCE)) off++;
    const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(4));
    process.stdout.write(`${name.padEnd(22)}${split.padEnd(7)}${f(a).padStart(8)}${f(b).padStart(8)}${(Number.isNaN(diff) ? 'failed' : diff.toFixed(4)).padStart(9)}\n`);
  }
}
process.stdout.write(`\n${off === 0 ? `all rows within ±${TOLERANCE}` : `${off} rows off by more than ±${TOLERANCE}`} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
rmSync(dir, { recursive: true, force: true });
process.exitCode = off === 0 ? 0 : 1;
