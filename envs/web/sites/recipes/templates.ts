// RecipeBox's five templates. Each instance picks its arguments from the fresh database by instance number (so the
// 15 instances differ), and `random` only for secondary choices.
import { exactAnswer, numberAnswer, stateCheck } from '../../check.ts';
import type { WebTemplate } from '../../site.ts';
import { CUISINES, DIETS, type Recipe, type RecipeDb, scaled, shuffle, totalOf } from './db.ts';
import { TIME_LIMITS } from './pages.ts';
import { byPopularity, byRating } from './views.ts';

type Template = WebTemplate<RecipeDb>;

const nth = <T>(xs: readonly T[], i: number): T => {
  if (xs.length === 0) throw new Error('recipes: no candidate for this template');
  return xs[i % xs.length] as T;
};
/** A stable order of the recipes that differs from id order (ids follow authors). */
const stirred = (db: RecipeDb) => [...db.recipes].sort((a, b) => ((a.id * 37) % 101) - ((b.id * 37) % 101) || a.id - b.id);
const openRecipe = (name: string) => [`Type searchbox "Search recipes"; ${name}`, `Click link "${name}"`];

/**
 * What an agent without the filters finds (keyword search "Vegan Thai", or the Thai page): the first card by
 * popularity with the diet label whose clock (the cook time) fits the limit.
 */
export function cardTrap(db: RecipeDb, diet: string, cuisine: string, max: number): Recipe | undefined {
  return db.recipes.filter((x) => x.diets.includes(diet) && x.cuisine === cuisine).sort(byPopularity).find((x) => x.cookMin <= max);
}

const dietTime: Template = {
  id: 'diet-time',
  quirk: 'The diet and total-time filters exist only under "Advanced search"; keyword results show the cook time, not the total.',
  generate(random, instance, db) {
    const fitting = (diet: string, cuisine: string, max: number) =>
      db.recipes.filter((x) => x.diets.includes(diet) && x.cuisine === cuisine && totalOf(x) <= max).sort(byPopularity);
    const picks: { diet: string; max: number; first: Recipe; misleads: boolean }[] = [];
    // One cuisine per instance; diet and limit are the first (in a seeded order) where the filterless routes
    // (keyword search, cuisine page) mislead — or, rarely (about 1 in 100), merely where some recipe fits.
    const cuisine = nth(CUISINES, instance);
    for (const diet of shuffle(random, DIETS))
      for (const max of shuffle(random, TIME_LIMITS)) {
        const first = fitting(diet, cuisine, max)[0];
        const trap = cardTrap(db, diet, cuisine, max);
        if (first) picks.push({ diet, max, first, misleads: !!trap && totalOf(trap) > max });
      }
    const { diet, max, first } = nth([...picks.filter((p) => p.misleads), ...picks.filter((p) => !p.misleads)], 0);
    const names = fitting(diet, cuisine, max).map((x) => x.name);
    return {
      instruction: `On RecipeBox, find a ${diet} ${cuisine} recipe whose total time is at most ${max} minutes and give its name.`,
      start: '/',
      check: ({ answer }) => exactAnswer(first.name, answer, names),
      oracle: [
        'Click link "Advanced search"',
        `Select combobox "Diet"; ${diet}`,
        `Select combobox "Cuisine"; ${cuisine}`,
        `Select combobox "Max total time"; ${max} minutes`,
        'Click button "Search"',
        `ANSWER; ${first.name}`,
      ],
      expected: `answer the name of any ${diet} ${cuisine} recipe with prep + cook ≤ ${max} min, e.g. "${first.name}" (${totalOf(first)} min)`,
    };
  },
};

const SERVINGS = [2, 3, 5, 6, 8, 10, 12];

const scaleServings: Template = {
  id: 'scale-servings',
  quirk: 'Ingredient amounts are shown for 4 servings whatever the recipe\'s yield; set the "Servings" scaler to read the amount.',
  generate(random, instance, db) {
    const x = nth(stirred(db).filter((r) => r.yield !== 4), instance);
    const ing = x.ingredients[0] as Recipe['ingredients'][number];
    const choices = SERVINGS.filter((n) => n !== x.yield);
    const n = choices[Math.floor(random() * choices.length)] as number;
    const amount = scaled(x, ing, n);
    return {
      instruction: `On RecipeBox, open the recipe "${x.name}" and say how many grams of ${ing.name} it needs for ${n} servings.`,
      start: '/',
      check: ({ answer }) => numberAnswer(amount, answer, { absolute: 0.5, relative: 0.02 }),
      oracle: [...openRecipe(x.name), `Type spinbutton "Servings"; ${n}`, `ANSWER; ${amount}`],
      expected: `answer ${amount} (grams of ${ing.name} for ${n} servings; the recipe yields ${x.yield})`,
    };
  },
};

const authorCount: Template = {
  id: 'author-count',
  quirk: 'The author page lists only the latest six recipes; the real count is "Recipes published" on the Profile tab.',
  generate(_random, instance, db) {
    const a = nth(db.authors, instance);
    const count = db.recipes.filter((x) => x.authorId === a.id).length;
    return {
      instruction: `On RecipeBox, how many recipes has the author "${a.name}" published in total?`,
      start: '/',
      check: ({ answer }) => numberAnswer(count, answer),
      oracle: ['Click link "Authors"', `Click link "${a.name}"`, 'Click link "Profile"', `ANSWER; ${count}`],
      expected: `answer ${count}`,
    };
  },
};

const saveToCollection: Template = {
  id: 'save-to-collection',
  quirk: 'The "Save" button saves to Favorites; other collections are picked in the "…" (More actions) menu.',
  generate(random, instance, db) {
    const x = nth(stirred(db).slice(40), instance);
    const open = db.collections.filter((c) => c.id !== 1 && !c.recipeIds.includes(x.id));
    const c = open[Math.floor(random() * open.length)] as RecipeDb['collections'][number];
    const ci = db.collections.indexOf(c);
    return {
      instruction: `On RecipeBox, add the recipe "${x.name}" to your collection "${c.name}".`,
      start: '/',
      check: ({ before, after }) =>
        stateCheck(before, after, [{ what: `"${x.name}" is in "${c.name}"`, holds: !!after.collections[ci]?.recipeIds.includes(x.id) }], [`collections.${ci}`]),
      oracle: [...openRecipe(x.name), 'Click generic "More actions"', `Select combobox "Collection"; ${c.name}`, 'Click button "Add to collection"', 'ANSWER; done'],
      expected: `"${x.name}" added to the collection "${c.name}" and nothing else changed`,
    };
  },
};

const topRatedTime: Template = {
  id: 'top-rated-time',
  quirk: 'Cards show the cook time only; the total time (prep + cook) is on the recipe page.',
  generate(_random, instance, db) {
    const cuisine = nth(CUISINES, instance);
    const top = db.recipes.filter((x) => x.cuisine === cuisine).sort(byRating)[0] as Recipe;
    return {
      instruction: `On RecipeBox, what is the total time in minutes of the top-rated ${cuisine} recipe?`,
      start: '/',
      check: ({ answer }) => numberAnswer(totalOf(top), answer),
      oracle: [`Click link "${cuisine}"`, 'Click link "Top rated"', `Click link "${top.name}"`, `ANSWER; ${totalOf(top)}`],
      expected: `answer ${totalOf(top)} ("${top.name}": ${top.prepMin} min prep + ${top.cookMin} min cook)`,
    };
  },
};

export const TEMPLATES: Template[] = [dietTime, scaleServings, authorCount, saveToCollection, topRatedTime];
