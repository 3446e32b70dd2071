// All tasks of the environment: every template of every site instantiated `instances` times over the site's
// seeded database, with public ids and roles as every built-in catalog gives them (../template-catalog.ts).
import type { TaskRole } from '../../engine/environment/task-spec.ts';
import { seededRandom } from '../../engine/random.ts';
import { type CatalogOptions, templateCatalog } from '../template-catalog.ts';
import type { SiteDb, WebInstance, WebSite, WebTemplate } from './site.ts';

export interface WebTask {
  /** Public id. */
  id: string;
  site: WebSite;
  template: WebTemplate<SiteDb>;
  instance: number;
  spec: WebInstance<SiteDb>;
  role: TaskRole;
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

export function buildCatalog(sites: WebSite[], options: CatalogOptions): WebTask[] {
  return templateCatalog('web', sites, options, ({ group: site, template, instance: i, id }) => ({
    id,
    site,
    template,
    instance: i,
    spec: instantiate(site, template, i, options.seed),
    role: 'test',
  }));
}
