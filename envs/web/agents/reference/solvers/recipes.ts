// RecipeBox (recipes): find a recipe by diet, cuisine and time; scale an ingredient; count an author's recipes;
// add a recipe to a collection; the total time of a cuisine's top-rated recipe. The generic procedure knows
// recipe sites (search box, cuisine pages, sort control, recipe facts) but not this site's quirks, so where
// several routes are plausible it picks one, seeded by the task, keeping the routes failed siblings took for last.
import type { AxNode } from '../../../browser/observation.ts';
import { find, findAll, valueOf } from '../../../browser/snapshot.ts';
import { byPattern, chooseWay, type PatternTask, type SolveContext, type WebSolver } from '../solver.ts';

interface Card {
  name: string;
  /** The minutes on the card's clock. */
  minutes?: number;
  labels: string;
}

/** Recipe cards on the page: each article's link, its "⏱ N min" line and its label line. */
function cardsOf(nodes: AxNode[]): Card[] {
  const out: Card[] = [];
  nodes.forEach((n, i) => {
    if (n.role !== 'article') return;
    const inside: AxNode[] = [];
    for (const m of nodes.slice(i + 1)) {
      if (m.depth <= n.depth) break;
      inside.push(m);
    }
    const link = inside.find((m) => m.role === 'link');
    if (!link) return;
    const texts = inside.map((m) => m.text ?? '').filter(Boolean);
    const clock = texts.map((t) => t.match(/⏱\s*(\d+)\s*min/)).find(Boolean);
    out.push({ name: link.name, ...(clock ? { minutes: Number(clock[1]) } : {}), labels: texts.join(' · ') });
  });
  return out;
}

const numberIn = (s: string | undefined) => {
  const m = s?.match(/-?\d+(?:\.\d+)?/);
  return m ? Number(m[0]) : undefined;
};

const has = (re: RegExp) => (acts: string[]) => acts.some((a) => re.test(a));
const nodes = (ctx: SolveContext) => ctx.page().nodes;

async function openRecipe(ctx: SolveContext, name: string): Promise<void> {
  if (!find(nodes(ctx), 'searchbox', 'Search recipes')) await ctx.act('Click link "Home"', 'the search box is on the home page');
  await ctx.act(`Type searchbox "Search recipes"; ${name}`, 'search the recipe by name');
  await ctx.act(`Click link "${name}"`, 'open it');
}

/** Scans cards (up to three pages) for the first that carries the diet label and whose clock fits the limit. */
async function scanCards(ctx: SolveContext, diet: string, max: number): Promise<string | undefined> {
  for (let pageNo = 0; pageNo < 3; pageNo++) {
    const hit = cardsOf(nodes(ctx)).find((c) => c.labels.toLowerCase().includes(diet.toLowerCase()) && (c.minutes ?? 999) <= max);
    if (hit) return hit.name;
    if (!find(nodes(ctx), 'link', 'Next page') || !(await ctx.act('Click link "Next page"', 'no fit here: next page'))) break;
  }
  return cardsOf(nodes(ctx))[0]?.name;
}

async function dietTime(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, diet, cuisine, maxText] = m as unknown as [string, string, string, string];
  const max = Number(maxText);
  const way = chooseWay(ctx, [
    { id: 'keyword', weight: 0.35, tookBy: has(/searchbox "Search recipes"/) },
    { id: 'cuisine', weight: 0.3, tookBy: (acts) => !has(/Advanced search|searchbox/)(acts) },
    { id: 'advanced', weight: 0.35, tookBy: has(/Advanced search/) },
  ]);
  if (way === 'keyword') {
    await ctx.act(`Type searchbox "Search recipes"; ${diet} ${cuisine}`, 'search by diet and cuisine');
    return scanCards(ctx, diet, max);
  }
  if (way === 'cuisine') {
    await ctx.act(`Click link "${cuisine}"`, 'open the cuisine page');
    return scanCards(ctx, diet, max);
  }
  await ctx.act('Click link "Advanced search"', 'the advanced search has filters');
  await ctx.act(`Select combobox "Diet"; ${diet}`);
  await ctx.act(`Select combobox "Cuisine"; ${cuisine}`);
  await ctx.act(`Select combobox "Max total time"; ${max} minutes`);
  await ctx.act('Click button "Search"');
  return cardsOf(nodes(ctx))[0]?.name;
}

/** The amount on the ingredient line "600 g tofu". */
function gramsOf(ns: AxNode[], ingredient: string): number | undefined {
  const re = new RegExp(`^(\\d+(?:\\.\\d+)?)\\s*g\\s+${ingredient.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');
  for (const n of findAll(ns, 'listitem')) {
    const hit = (n.text ?? n.name).match(re);
    if (hit) return Number(hit[1]);
  }
  return undefined;
}

async function scale(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, name, ingredient, servingsText] = m as unknown as [string, string, string, string];
  const servings = Number(servingsText);
  await openRecipe(ctx, name);
  const way = chooseWay(ctx, [
    { id: 'yield', weight: 0.65, tookBy: (acts) => !has(/spinbutton "Servings"/)(acts) },
    { id: 'scaler', weight: 0.35, tookBy: has(/spinbutton "Servings"/) },
  ]);
  if (way === 'scaler') {
    await ctx.act(`Type spinbutton "Servings"; ${servings}`, 'let the page scale the amounts');
    const g = gramsOf(nodes(ctx), ingredient);
    return g === undefined ? undefined : String(g);
  }
  // The amounts as listed are taken to be for the recipe's yield.
  const g = gramsOf(nodes(ctx), ingredient);
  const yieldN = numberIn(valueOf(nodes(ctx), 'Yield'));
  if (g === undefined || !yieldN) return undefined;
  return String(Math.round((g * servings) / yieldN));
}

async function authorCount(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const name = m[1] as string;
  await ctx.act('Click link "Authors"', 'the authors directory');
  await ctx.act(`Click link "${name}"`, 'open the author');
  const way = chooseWay(ctx, [
    { id: 'count', weight: 0.65, tookBy: (acts) => !has(/link "Profile"/)(acts) },
    { id: 'profile', weight: 0.35, tookBy: has(/link "Profile"/) },
  ]);
  if (way === 'profile') {
    await ctx.act('Click link "Profile"', 'the profile may list the total');
    const v = numberIn(valueOf(nodes(ctx), 'Recipes published'));
    if (v !== undefined) return String(v);
  }
  return String(cardsOf(nodes(ctx)).length);
}

async function collect(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, name, collection] = m as unknown as [string, string, string];
  const way = chooseWay(ctx, [
    { id: 'save', weight: 0.45, tookBy: has(/Save recipe/) },
    { id: 'collections', weight: 0.2, tookBy: has(/My collections/) },
    { id: 'menu', weight: 0.35, tookBy: has(/More actions/) },
  ]);
  if (way === 'collections') {
    // Look for an "add" control on the collection itself; there is none, so fall back to the recipe's Save.
    await ctx.act('Click link "My collections"', 'collections are managed here');
    await ctx.act(`Click link "${collection}"`);
  }
  await openRecipe(ctx, name);
  if (way === 'menu') {
    await ctx.act('Click generic "More actions"', 'the collection picker is in the menu');
    await ctx.act(`Select combobox "Collection"; ${collection}`);
    await ctx.act('Click button "Add to collection"');
  } else await ctx.act('Click button "Save recipe"', 'save the recipe');
  return 'done';
}

/** The recipe page's "Total time" (opening the first card when on a list). */
async function totalTime(ctx: SolveContext): Promise<string | undefined> {
  if (!valueOf(nodes(ctx), 'Total time')) {
    const first = cardsOf(nodes(ctx))[0];
    if (first) await ctx.act(`Click link "${first.name}"`, 'open the top recipe');
  }
  const v = numberIn(valueOf(nodes(ctx), 'Total time'));
  return v === undefined ? undefined : String(v);
}

async function topRated(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  await ctx.act(`Click link "${m[1] as string}"`, 'open the cuisine page');
  await ctx.act('Click link "Top rated"', 'best rated first');
  const way = chooseWay(ctx, [
    { id: 'card', weight: 0.65, tookBy: (acts) => acts.length <= 2 },
    { id: 'open', weight: 0.35, tookBy: (acts) => acts.length > 2 },
  ]);
  if (way === 'open') return totalTime(ctx);
  const v = cardsOf(nodes(ctx))[0]?.minutes;
  return v === undefined ? undefined : String(v);
}

const TASKS: PatternTask[] = [
  [/find an? (\S+) (\S+) recipe whose total time is at most (\d+) minutes/i, dietTime],
  [/open the recipe "([^"]+)" and say how many grams of (.+?) it needs for (\d+) servings/i, scale],
  [/how many recipes has the author "([^"]+)" published/i, authorCount],
  [/add the recipe "([^"]+)" to your collection "([^"]+)"/i, collect],
  [/total time in minutes of the top-rated (\S+) recipe/i, topRated],
];

export const recipesSolver: WebSolver = {
  site: 'recipes',

  generic: byPattern(TASKS),

  async finish(ctx) {
    const ins = ctx.instruction;
    if (/add the recipe/i.test(ins)) return 'done';
    const grams = ins.match(TASKS[1]?.[0] as RegExp);
    if (grams) {
      const g = gramsOf(nodes(ctx), grams[2] as string);
      return g === undefined ? undefined : String(g);
    }
    if (/how many recipes has the author/i.test(ins)) {
      const v = numberIn(valueOf(nodes(ctx), 'Recipes published'));
      return String(v ?? cardsOf(nodes(ctx)).length);
    }
    if (/top-rated/i.test(ins)) return totalTime(ctx);
    if (/find an? .* recipe whose total time/i.test(ins)) {
      const title = find(nodes(ctx), 'heading')?.name;
      return cardsOf(nodes(ctx))[0]?.name ?? (valueOf(nodes(ctx), 'Total time') ? title : undefined);
    }
    return undefined;
  },
};
