// All tasks of the environment: every template of every site instantiated `instances` times over the site's
// seeded database, with opaque public ids (programs see `web-<site>-<hash>`, not the template), and the split —
// per template, instances ordered by a seeded hash, the first fifth to train (so every template has training
// siblings), the rest to test. Training instances divide into the update batch and the validation batch.
import { createHash } from 'node:crypto';
import type { TaskRole } from '../../engine/environment/task-spec.ts';
import { seededRandom } from '../../engine/random.ts';
import { templateRoles, validationPerTemplate } from '../split.ts';
import type { SiteDb, WebInstance, WebSite, WebTemplate } from './site.ts';

export type Role = TaskRole;

export interface WebTask {
  /** Public id. */
  id: string;
  site: WebSite;
  template: WebTemplate<SiteDb>;
  instance: number;
  spec: WebInstance<SiteDb>;
  role: Role;
}

export interface CatalogOptions {
  seed: number;
  instances: number;
  trainShare: number;
  /** Validation tasks the catalog has at least (default 30: an evaluation's minimum); 0 keeps the share alone. */
  validationTasks?: number;
}

const pristine = new Map<string, SiteDb>();

/** The site's database for a seed, as it is before any episode (built once; never mutate it). */
export function freshDb(site: WebSite, seed: number): SiteDb {
  const key = `${site.name}\u0000${seed}`;
  let db = pristine.get(key);
  if (!db) {
    db = site.createDb(seed);
    pristine.set(key, db);
  }
  return db;
}

export function instantiate(site: WebSite, template: WebTemplate<SiteDb>, instance: number, seed: number): WebInstance<SiteDb> {
  return template.generate(seededRandom('web', seed, `${site.name}/${template.id}/${instance}`), instance, structuredClone(freshDb(site, seed)));
}

function publicId(site: string, key: string): string {
  return `web-${site}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

export function buildCatalog(sites: WebSite[], options: CatalogOptions): WebTask[] {
  const out: WebTask[] = [];
  const minValidation = validationPerTemplate(sites.reduce((n, s) => n + s.templates.length, 0), options.validationTasks);
  for (const site of sites) {
    for (const template of site.templates) {
      const rows: WebTask[] = [];
      for (let i = 0; i < options.instances; i++) {
        const key = `${site.name}/${template.id}/${i}`;
        rows.push({ id: publicId(site.name, `${options.seed}/${key}`), site, template, instance: i, spec: instantiate(site, template, i, options.seed), role: 'test' });
      }
      const roles = templateRoles(rows.map((r) => r.id), options.seed, options.trainShare, minValidation);
      for (const r of rows) r.role = roles.get(r.id) ?? 'test';
      out.push(...rows);
    }
  }
  return out;
}
