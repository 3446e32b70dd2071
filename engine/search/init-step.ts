// Step 0: the no-memory root, then the seeds (children of the root), each evaluated once on the first validation
// sample: the seeds named by the run, and, with `--seeds auto`, the best few of the standard designs, screened
// together on that sample (screen.ts).
import { readProgramFiles } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { evaluateNode } from './evaluate-node.ts';
import { seedNodeIds } from './node-ids.ts';
import { screenDesigns } from './screen.ts';
import type { SearchRun } from './search-run.ts';

export async function initStep(run: SearchRun): Promise<void> {
  const root = await run.programNode('root', readProgramFiles(resolveProgram('no-memory').path), null, 'root', 0, 'no memory');
  run.addNode(root, 0);
  await evaluateNode(run, root, 'train', 0);
  // A seed's id is a safe name made from it (a seed may be a path): ids name folders of the run.
  const { seeds, screen } = run.options;
  const ids = seedNodeIds([...seeds, ...(screen?.designs ?? [])]);
  for (const [i, seed] of seeds.entries()) {
    const files = readProgramFiles(resolveProgram(seed).path);
    const node = await run.programNode(ids[i] as string, files, 'root', 'seed', 0, `seed program ${seed}`);
    run.addNode(node, 0);
    await evaluateNode(run, node, 'train', 0);
  }
  if (screen) await screenDesigns(run, screen, ids.slice(seeds.length));
}
