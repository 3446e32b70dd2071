// Step 0: the no-memory root, then the seeds (children of the root), each evaluated once on the first validation
// sample: the seeds named by the run, and, with `--seeds auto`, the best few of the standard designs, screened
// together on that sample (screen.ts).
import { readProgramFiles } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import type { Evaluations } from './evaluate-node.ts';
import { seedNodeIds } from './node-ids.ts';
import type { ProgramStore } from './program-store.ts';
import type { RunOptions } from './run-options.ts';
import { screenDesigns } from './screen.ts';
import type { SearchJournal } from './search-journal.ts';

export interface InitParts {
  journal: SearchJournal;
  programs: ProgramStore;
  evaluations: Evaluations;
  options: Pick<RunOptions, 'seeds' | 'screen'>;
}

export async function initStep(p: InitParts): Promise<void> {
  const { journal, programs, evaluations } = p;
  const add = async (id: string, name: string, parent: string | null, description: string) => {
    const spec = {
      id,
      parent,
      kind: parent ? ('seed' as const) : ('root' as const),
      step: 0,
      parentSnapshot: parent ? journal.state.tree.q(journal.state.tree.get(parent)) : null,
      description,
    };
    journal.record(await programs.writeNode(spec, readProgramFiles(resolveProgram(name).path)));
    await evaluations.evaluate(journal.state.tree.get(id), 'train', 0);
  };
  await add('root', 'no-memory', null, 'no memory');
  // A seed's id is a safe name made from it (a seed may be a path): ids name folders of the run.
  const { seeds, screen } = p.options;
  const ids = seedNodeIds([...seeds, ...(screen?.designs ?? [])]);
  for (const [i, seed] of seeds.entries()) await add(ids[i] as string, seed, 'root', `seed program ${seed}`);
  if (screen) await screenDesigns(p, screen, ids.slice(seeds.length));
}
