// automemo demo: the offline tour. It evaluates the standard memory baselines and the Omni-SimpleMem seed on the
// shipped LoCoMo conversations (held-out test questions, evidence recall), prints the table, and says where the
// results and per-task evidence were written.
import { join } from 'node:path';
import { z } from 'zod';
import { describeModel, resolveModels } from '../../llm/models.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import { parse } from '../args.ts';
import { bold } from '../style.ts';
import { runBaselines } from './baselines.ts';

export const usage = `automemo demo [--out DIR]

Offline tour: evaluates the memory baselines and the Omni-SimpleMem seed on the
shipped LoCoMo conversations (test questions; the reward is the
evidence recall of each payload), prints the table and where the results are.
Default output: search-trees/runs/demo-<time>.`;

const Args = z.object({ positionals: z.array(z.string()).max(0), out: z.string().optional() });

export async function run(argv: string[]): Promise<number> {
  const a = parse(argv, { out: { type: 'string' } }, Args);
  const models = resolveModels();
  const mode = Object.values(models).some(Boolean) ? 'model' : 'offline';
  process.stdout.write(
    `${bold('automemo demo')} — mode: ${mode} (executor ${describeModel(models.executor)}, memo ${describeModel(models.memo)}, embedding ${describeModel(models.embedding)})\n\n`,
  );
  const out = a.out ?? join(repoRoot, 'search-trees', 'runs', `demo-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  return runBaselines({ env: 'locomo', split: 'test', out, json: false });
}
