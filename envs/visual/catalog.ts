// All tasks of the environment: every template of every family rendered for `instances` seeded instances, with
// opaque public ids (programs see `visual-<family>-<hash>`, not the template), and the split — per template,
// instances ordered by a seeded hash, the first fifth to train (so every template has training siblings), the
// rest to test. Training instances divide into the update batch and the validation retrieve batch the search uses;
// validation grows per template until the catalog has 30 validation tasks (each evaluation can then score 30).
import { createHash } from 'node:crypto';
import type { TaskRole } from '../../engine/environment/task-spec.ts';
import { seededRandom } from '../../engine/random.ts';
import { templateRoles, validationPerTemplate } from '../split.ts';
import { renderSvg } from './render.ts';
import type { Family, VisualTask } from './task.ts';
import type { ToolWorld } from './tools/types.ts';

export interface CatalogOptions {
  seed: number;
  /** Instances per template. */
  instances: number;
  /** Share of each template's instances that go to train (default 0.2). */
  trainShare: number;
  /** Validation tasks the catalog has at least (default 30: an evaluation's minimum); 0 keeps the share alone. */
  validationTasks?: number;
}

export type Role = TaskRole;

export interface CatalogEntry {
  task: VisualTask;
  role: Role;
  /** The template's quirk, for explanations. */
  quirk: string;
}

function publicId(family: string, key: string): string {
  return `visual-${family}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

export function buildCatalog(families: Family[], options: CatalogOptions): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  const minValidation = validationPerTemplate(families.reduce((n, f) => n + f.templates.length, 0), options.validationTasks);
  for (const family of families) {
    for (const template of family.templates) {
      const rows: CatalogEntry[] = [];
      for (let i = 0; i < options.instances; i++) {
        const key = `${family.name}/${template.id}/${i}`;
        const inst = template.generate(seededRandom('visual', options.seed, key), i);
        const { png, width, height } = renderSvg(inst.svg);
        rows.push({
          task: {
            id: publicId(family.name, `${options.seed}/${key}`),
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
        });
      }
      const roles = templateRoles(rows.map((r) => r.task.id), options.seed, options.trainShare, minValidation);
      for (const r of rows) r.role = roles.get(r.task.id) ?? 'test';
      out.push(...rows);
    }
  }
  return out;
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
