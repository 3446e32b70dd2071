// automemo demo: the offline tour — a short budget-aware tree search on the shipped LoCoMo conversations, starting
// from the no-memory root and the Omni-SimpleMem seed, with the offline meta agent; it prints each step, the final
// table (validation and held-out test scores of the selected program, the root and the seed) and the run folder.
import { join } from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../../../sandbox/paths.ts';
import { intOption, parse } from '../args.ts';
import { searchCommand } from './search.ts';

export const usage = `automemo demo [--budget N] [--out DIR]

Offline tour: a ${12}-step tree search over memo programs on the shipped LoCoMo
conversations (reward: evidence recall), seeded with Omni-SimpleMem, using the
offline meta agent. Prints every step, the final table and the run folder
(default search-trees/runs/demo-<time>). Takes a few minutes on a laptop.
For the memory baselines side by side: automemo baselines --env locomo.`;

const Args = z.object({ positionals: z.array(z.string()).max(0), out: z.string().optional(), budget: intOption(1, 1000) });

export async function run(argv: string[]): Promise<number> {
  const a = parse(argv, { out: { type: 'string' }, budget: { type: 'string' } }, Args);
  const out = a.out ?? join(repoRoot, 'search-trees', 'runs', `demo-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  return searchCommand({ positionals: [], env: 'locomo', budget: a.budget ?? 12, out, meta: 'offline' }, 'automemo demo');
}
