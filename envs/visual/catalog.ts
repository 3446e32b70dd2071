// All tasks of the environment: every template of every family rendered for `instances` seeded instances, with
// public ids and roles as every built-in catalog gives them (../template-catalog.ts); and the tools' world.
import type { TaskRole } from '../../engine/environment/task-spec.ts';
import { seededRandom } from '../../engine/random.ts';
import { type CatalogOptions, templateCatalog } from '../template-catalog.ts';
import { renderSvg } from './render.ts';
import type { Family, VisualTask } from './task.ts';
import type { ToolWorld } from './tools/types.ts';

export interface CatalogEntry {
  task: VisualTask;
  role: TaskRole;
  /** The template's quirk, for explanations. */
  quirk: string;
}

export function buildCatalog(families: Family[], options: CatalogOptions): CatalogEntry[] {
  return templateCatalog('visual', families, options, ({ group: family, template, instance: i, id, key }) => {
    const inst = template.generate(seededRandom('visual', options.seed, key), i);
    const { png, width, height } = renderSvg(inst.svg);
    return {
      task: {
        id,
        family: family.name,
        template: template.id,
        instance: i,
        instruction: inst.instruction,
        images: [{ name: `${family.name}-${template.id}-${i}.png`, png, width, height }],
        answer: inst.answer,
        oracle: inst.oracle,
      },
      role: 'test',
      quirk: template.quirk,
    };
  });
}

export function buildWorld(families: Family[], seed: number): ToolWorld {
  const world: ToolWorld = { catalogue: [], pages: new Map() };
  for (const f of families) {
    const r = f.resources?.(seed);
    if (r?.catalogue) world.catalogue.push(...r.catalogue);
    if (r?.pages) for (const [k, v] of r.pages) world.pages.set(k, v);
  }
  return world;
}
