// Step 0: the no-memory root and the seed programs (children of the root), each evaluated once.
import { readProgramFiles } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { evaluateNode } from './evaluate-node.ts';
import { seedNodeIds } from './node-ids.ts';
import type { SearchRun } from './search-run.ts';

export async function initStep(run: SearchRun): Promise<void> {
  const root = await run.programNode('root', readProgramFiles(resolveProgram('no-memory').path), null, 'root', 0, 'no memory');
  run.addNode(root, 0);
  await evaluateNode(run, root, 'train', 0);
  // A seed's id is a safe name made from it (a seed may be a path): ids name folders of the run.
  const seeds = run.options.seeds;
  const ids = seedNodeIds(seeds);
  for (const [i, seed] of seeds.entries()) {
    const files = readProgramFiles(resolveProgram(seed).path);
    const node = await run.programNode(ids[i] as string, files, 'root', 'seed', 0, `seed program ${seed}`);
    run.addNode(node, 0);
    await evaluateNode(run, node, 'train', 0);
  }
}
