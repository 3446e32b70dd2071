// The task catalog of a built-in environment (visual, web): every template of every group (a visual family, a web
// site) instantiated `instances` times, each with an opaque public id (programs see `<env>-<group>-<hash>`, not
// the template), and the split — per template, instances ordered by a seeded hash, the first share to train (so
// every template has training siblings), the rest to test. Training instances divide into the update batch and the
// validation batch the search uses; validation grows per template until the catalog has `validationTasks`.
import { createHash } from 'node:crypto';
import type { TaskRole } from '../engine/environment/task-spec.ts';
import { templateRoles, validationPerTemplate } from './split.ts';

export interface CatalogOptions {
  seed: number;
  /** Instances per template. */
  instances: number;
  /** Share of each template's instances that go to train (default 0.2). */
  trainShare: number;
  /** Validation tasks the catalog has at least (default 30: an evaluation's minimum); 0 keeps the share alone. */
  validationTasks?: number;
}

/** A built-in catalog's settings with their defaults: seed 0, `instances` instances per template, a fifth to train. */
export function catalogSettings(o: Partial<CatalogOptions>, instances: number): CatalogOptions {
  return {
    seed: o.seed ?? 0,
    instances: o.instances ?? instances,
    trainShare: o.trainShare ?? 0.2,
    ...(o.validationTasks !== undefined ? { validationTasks: o.validationTasks } : {}),
  };
}

interface Group {
  name: string;
  templates: readonly { id: string }[];
}

/** One instance of a template, as the environment makes its catalog row from it. */
export interface TemplateInstance<G extends Group> {
  group: G;
  template: G['templates'][number];
  instance: number;
  /** The public id. */
  id: string;
  /** `<group>/<template>/<instance>`, which seeds the instance. */
  key: string;
}

/** The rows `row` makes of every instance, each with its role. */
export function templateCatalog<G extends Group, R extends { role: TaskRole }>(env: string, groups: readonly G[], options: CatalogOptions, row: (at: TemplateInstance<G>) => R): R[] {
  const out: R[] = [];
  const minValidation = validationPerTemplate(groups.reduce((n, g) => n + g.templates.length, 0), options.validationTasks);
  for (const group of groups) {
    for (const template of group.templates) {
      const ids: string[] = [];
      const rows: R[] = [];
      for (let i = 0; i < options.instances; i++) {
        const key = `${group.name}/${template.id}/${i}`;
        const id = publicId(env, group.name, `${options.seed}/${key}`);
        ids.push(id);
        rows.push(row({ group, template, instance: i, id, key }));
      }
      const roles = templateRoles(ids, options.seed, options.trainShare, minValidation);
      rows.forEach((r, i) => (r.role = roles.get(ids[i] as string) ?? 'test'));
      out.push(...rows);
    }
  }
  return out;
}

function publicId(env: string, group: string, key: string): string {
  return `${env}-${group}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}
