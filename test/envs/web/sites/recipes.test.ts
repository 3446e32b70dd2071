import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random.ts';
import { closeBrowsers } from '../../../../envs/web/browser/browser.ts';
import { runOracle } from '../../../../envs/web/episode.ts';
import type { SiteRequest } from '../../../../envs/web/site.ts';
import { type RecipeDb } from '../../../../envs/web/sites/recipes/db.ts';
import { recipesSite } from '../../../../envs/web/sites/recipes/index.ts';

const instance = (templateId: string, i: number, seed = 0) => {
  const t = recipesSite.templates.find((x) => x.id === templateId);
  if (!t) throw new Error(templateId);
  return t.generate(seededRandom('test', templateId, i), i, recipesSite.createDb(seed));
};
const get = (db: RecipeDb, path: string, query = ''): string =>
  recipesSite.handle(db, { method: 'GET', path, query: new URLSearchParams(query), form: new URLSearchParams(), cookies: {} } satisfies SiteRequest).html ?? '';
const post = (db: RecipeDb, path: string, form: string) =>
  recipesSite.handle(db, { method: 'POST', path, query: new URLSearchParams(), form: new URLSearchParams(form), cookies: {} });

describe('recipes site (handlers)', () => {
  it('builds the same database for a seed, a different one for another seed', () => {
    expect(recipesSite.createDb(3)).toEqual(recipesSite.createDb(3));
    expect(recipesSite.createDb(3)).not.toEqual(recipesSite.createDb(4));
    const db = recipesSite.createDb(3);
    expect(JSON.parse(JSON.stringify(db))).toEqual(db);
  });

  it('renders its pages and shows amounts for 4 servings by default', () => {
    const db = recipesSite.createDb(0);
    const x = db.recipes.find((r) => r.yield === 8) as RecipeDb['recipes'][number];
    const half = Math.round(((x.ingredients[0]?.amount ?? 0) / 2) / 5) * 5;
    expect(get(db, `/recipes/${x.id}`)).toContain(`${half} g ${x.ingredients[0]?.name}`);
    expect(get(db, `/recipes/${x.id}`, 'servings=8')).toContain(`${x.ingredients[0]?.amount} g ${x.ingredients[0]?.name}`);
    for (const path of ['/', '/recipes', '/authors', '/authors/1', '/collections', '/collections/2', '/cuisines/thai', '/search/advanced'])
      expect(get(db, path)).toContain('RecipeBox');
    expect(recipesSite.handle(db, { method: 'GET', path: '/nope', query: new URLSearchParams(), form: new URLSearchParams(), cookies: {} }).status).toBe(404);
  });

  it('the Save button adds to Favorites, the menu form to the chosen collection', () => {
    const db = recipesSite.createDb(0);
    const x = db.recipes[5] as RecipeDb['recipes'][number];
    expect(post(db, `/recipes/${x.id}/save`, '').redirect).toContain(`/recipes/${x.id}`);
    expect(db.collections[0]?.recipeIds).toContain(x.id);
    post(db, `/recipes/${x.id}/collect`, 'collection=4');
    expect(db.collections[3]?.recipeIds).toContain(x.id);
  });

  for (const t of recipesSite.templates) {
    it(`${t.id}: 15 distinct instances with distinct expected outcomes, for several seeds`, () => {
      for (const seed of [0, 1, 2, 5, 11]) {
        const all = Array.from({ length: 15 }, (_, i) => instance(t.id, i, seed));
        expect(new Set(all.map((x) => x.instruction)).size).toBe(15);
        expect(new Set(all.map((x) => x.expected)).size).toBe(15);
        for (const x of all) expect(x.oracle.at(-1)).toMatch(/^ANSWER; /);
      }
    });
  }

  it('answer checkers reject wrong answers', () => {
    const db = recipesSite.createDb(0);
    for (const id of ['diet-time', 'scale-servings', 'author-count', 'top-rated-time']) {
      const x = instance(id, 1);
      const right = (x.oracle.at(-1) as string).replace('ANSWER; ', '');
      expect(x.check({ before: db, after: db, answer: right }).correct).toBe(true);
      expect(x.check({ before: db, after: db, answer: '9999' }).correct).toBe(false);
      expect(x.check({ before: db, after: db, answer: undefined }).correct).toBe(false);
    }
  });

  it('save-to-collection: needs the change and rejects a side effect (saving to Favorites too)', () => {
    const x = instance('save-to-collection', 2);
    const before = recipesSite.createDb(0);
    const m = x.instruction.match(/"(.+)" to your collection "(.+)"/) as RegExpMatchArray;
    const recipe = before.recipes.find((r) => r.name === m[1]) as RecipeDb['recipes'][number];
    const coll = before.collections.find((c) => c.name === m[2]) as RecipeDb['collections'][number];
    expect(x.check({ before, after: before, answer: 'done' }).correct).toBe(false);
    const after = structuredClone(before);
    post(after, `/recipes/${recipe.id}/collect`, `collection=${coll.id}`);
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(true);
    post(after, `/recipes/${recipe.id}/save`, '');
    const favoritesHad = before.collections[0]?.recipeIds.includes(recipe.id);
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(!!favoritesHad);
    const other = structuredClone(before);
    post(other, `/recipes/${recipe.id}/collect`, `collection=${coll.id}`);
    post(other, `/collections/${coll.id === 2 ? 3 : 2}/remove`, `recipe=${before.collections[coll.id === 2 ? 2 : 1]?.recipeIds[0]}`);
    expect(x.check({ before, after: other, answer: 'done' }).correct).toBe(false);
  });
});

describe('recipes site (oracles in the browser)', { timeout: 120_000 }, () => {
  afterAll(() => closeBrowsers());
  for (const t of recipesSite.templates)
    for (const i of [0, 1])
      it(`${t.id} #${i}: the oracle scores 1`, async () => {
        const r = await runOracle(recipesSite, t.id, i);
        expect(r.correct, `${r.note}\n${r.steps.join('\n')}`).toBe(true);
      });
});
