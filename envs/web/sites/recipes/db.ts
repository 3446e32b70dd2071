// RecipeBox's seeded database: authors, recipes (ingredients stored for the recipe's own yield), and the user's
// collections. Plain JSON, deterministic for a seed. Recipe names are always three words (style, main, dish) so
// that sibling instructions align word by word.
import { seededRandom } from '../../../../engine/random.ts';

export interface Ingredient {
  name: string;
  /** Amount for the recipe's own yield (`Recipe.yield` servings). */
  amount: number;
  unit: 'g' | 'ml' | 'tbsp' | 'tsp' | 'cloves' | '';
}

export interface Recipe {
  id: number;
  name: string;
  authorId: number;
  cuisine: string;
  /** Diet labels: Vegan, Vegetarian, Gluten-free, Dairy-free, Low-carb, High-protein. */
  diets: string[];
  /** Servings the original recipe makes (the page still shows amounts for 4 by default). */
  yield: number;
  prepMin: number;
  cookMin: number;
  rating: number;
  ratingCount: number;
  published: string;
  ingredients: Ingredient[];
  steps: string[];
}

export interface Author {
  id: number;
  name: string;
  city: string;
  joined: string;
  followers: number;
  reviews: number;
}

export interface Collection {
  id: number;
  name: string;
  recipeIds: number[];
}

export type RecipeDb = {
  authors: Author[];
  recipes: Recipe[];
  collections: Collection[];
};

export const DIETS = ['Vegan', 'Vegetarian', 'Gluten-free', 'Dairy-free', 'Low-carb', 'High-protein'];
export const CUISINES = ['Mexican', 'Italian', 'Indian', 'Thai', 'Japanese', 'Greek', 'French', 'Chinese', 'Korean', 'Moroccan', 'Spanish', 'American', 'Vietnamese', 'Lebanese', 'Caribbean'];
export const COLLECTIONS = ['Favorites', 'Weeknight Dinners', 'Meal Prep', 'Date Night', 'Lunchbox Ideas', 'Comfort Food', 'Summer Grilling', 'Holiday Menu'];

type Kind = 'vegan' | 'vegetarian' | 'fish' | 'meat';
/** Main ingredients: kind, grams for 4 servings, whether it is protein-rich and starchy. */
const MAINS: [string, Kind, number, boolean, boolean][] = [
  ['Tofu', 'vegan', 400, true, false], ['Chickpea', 'vegan', 480, true, true], ['Lentil', 'vegan', 300, true, true],
  ['Mushroom', 'vegan', 450, false, false], ['Cauliflower', 'vegan', 600, false, false], ['Tempeh', 'vegan', 350, true, false],
  ['Eggplant', 'vegan', 500, false, false], ['Halloumi', 'vegetarian', 250, true, false], ['Paneer', 'vegetarian', 300, true, false],
  ['Salmon', 'fish', 500, true, false], ['Shrimp', 'fish', 450, true, false], ['Cod', 'fish', 550, true, false],
  ['Chicken', 'meat', 600, true, false], ['Beef', 'meat', 550, true, false], ['Pork', 'meat', 500, true, false],
  ['Lamb', 'meat', 500, true, false], ['Turkey', 'meat', 500, true, false],
];
/** Dishes: the base ingredient (grams for 4 servings) and whether the dish is gluten-free and low in carbs. */
const DISHES: [string, string, number, boolean, boolean][] = [
  ['Tacos', 'corn tortillas', 320, true, false], ['Curry', 'basmati rice', 300, true, false], ['Stew', 'potatoes', 500, true, false],
  ['Salad', 'mixed greens', 200, true, true], ['Bowl', 'brown rice', 300, true, false], ['Pasta', 'spaghetti', 400, false, false],
  ['Soup', 'carrots', 300, true, true], ['Skillet', 'bell peppers', 350, true, true], ['Bake', 'breadcrumbs', 80, false, false],
  ['Noodles', 'egg noodles', 350, false, false], ['Wraps', 'flour tortillas', 360, false, false], ['Risotto', 'arborio rice', 320, true, false],
  ['Burgers', 'burger buns', 340, false, false], ['Flatbread', 'flatbread dough', 450, false, false], ['Chili', 'kidney beans', 400, true, false],
  ['Kebabs', 'zucchini', 400, true, true], ['Fritters', 'plain flour', 150, false, false],
];
/** Styles: an extra ingredient (name, unit, amount for 4) and whether it contains dairy. */
const STYLES: [string, string, Ingredient['unit'], number, boolean][] = [
  ['Smoky', 'smoked paprika', 'tsp', 2, false], ['Lemon', 'lemon juice', 'ml', 45, false], ['Garlic', 'garlic', 'cloves', 6, false],
  ['Spicy', 'chili flakes', 'tsp', 1, false], ['Herbed', 'fresh parsley', 'g', 30, false], ['Honey', 'honey', 'tbsp', 2, false],
  ['Roasted', 'olive oil', 'tbsp', 3, false], ['Creamy', 'heavy cream', 'ml', 200, true], ['Crispy', 'cornstarch', 'tbsp', 2, false],
  ['Maple', 'maple syrup', 'tbsp', 2, false], ['Ginger', 'fresh ginger', 'g', 25, false], ['Sesame', 'sesame oil', 'tbsp', 2, false],
  ['Cheesy', 'grated cheddar', 'g', 150, true], ['Rustic', 'cherry tomatoes', 'g', 250, false], ['Golden', 'ground turmeric', 'tsp', 2, false],
  ['Zesty', 'lime juice', 'ml', 40, false], ['Sticky', 'soy sauce', 'tbsp', 3, false], ['Buttery', 'butter', 'g', 60, true],
];
const FIRST = ['Maria', 'James', 'Aiko', 'Priya', 'Lucas', 'Fatima', 'Noah', 'Elena', 'Omar', 'Grace', 'Mateo', 'Hannah', 'Ravi', 'Chloe', 'Tomas', 'Ingrid', 'Kofi', 'Leila'];
const LAST = ['Lopez', 'Carter', 'Tanaka', 'Sharma', 'Moreau', 'Haddad', 'Becker', 'Rossi', 'Khalil', 'Nguyen', 'Silva', 'Olsen', 'Mehta', 'Dubois', 'Novak', 'Berg', 'Mensah', 'Farah'];
const CITIES = ['Austin', 'Lyon', 'Osaka', 'Pune', 'Porto', 'Beirut', 'Hamburg', 'Bologna', 'Cairo', 'Hanoi', 'Denver', 'Oslo', 'Leeds', 'Krakow', 'Accra'];

const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pickOf = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
export function shuffle<T>(r: () => number, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}
const isoDay = (r: () => number, fromYear: number, toYear: number) =>
  `${int(r, fromYear, toYear)}-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')}`;

function dietsOf(kind: Kind, dish: (typeof DISHES)[number], style: (typeof STYLES)[number], main: (typeof MAINS)[number]): string[] {
  const dairy = style[4] || kind === 'vegetarian' || dish[1] === 'egg noodles';
  const out: string[] = [];
  if (kind === 'vegan' && !dairy && style[0] !== 'Honey' && dish[1] !== 'egg noodles') out.push('Vegan');
  if (kind === 'vegan' || kind === 'vegetarian') out.push('Vegetarian');
  if (dish[3]) out.push('Gluten-free');
  if (!dairy) out.push('Dairy-free');
  if (dish[4] && !main[4]) out.push('Low-carb');
  if (main[3]) out.push('High-protein');
  return out;
}

function ingredientsOf(r: () => number, yieldN: number, main: (typeof MAINS)[number], dish: (typeof DISHES)[number], style: (typeof STYLES)[number]): Ingredient[] {
  const f = yieldN / 4;
  const grams = (g: number) => Math.round((g * f * (0.85 + r() * 0.3)) / 5) * 5;
  const list: Ingredient[] = [
    { name: main[0].toLowerCase(), amount: grams(main[2]), unit: 'g' },
    { name: dish[1], amount: grams(dish[2]), unit: 'g' },
    { name: 'onion', amount: grams(150), unit: 'g' },
    { name: style[1], amount: Math.max(1, Math.round(style[3] * f)), unit: style[2] },
    { name: 'olive oil', amount: Math.max(1, Math.round(2 * f)), unit: 'tbsp' },
    { name: 'salt', amount: Math.max(1, Math.round(f)), unit: 'tsp' },
  ];
  if (r() < 0.5) list.splice(3, 0, { name: 'vegetable stock', amount: grams(300), unit: 'ml' });
  return list.filter((x, i) => list.findIndex((y) => y.name === x.name) === i);
}

function stepsOf(main: string, dish: string, style: string): string[] {
  return [
    `Prepare the ${main.toLowerCase()} and chop the onion.`,
    `Cook the onion in olive oil until soft, then add the ${main.toLowerCase()}.`,
    `Season with the ${style.toLowerCase()} ingredients and salt.`,
    `Finish the ${dish.toLowerCase()} and serve warm.`,
  ];
}

export function createDb(seed: number): RecipeDb {
  const r = seededRandom('recipes-db', seed);
  // 15 authors with distinct recipe counts (7..21), so each author's count is its own answer.
  const lasts = shuffle(r, LAST);
  const names = shuffle(r, FIRST).slice(0, 15).map((f, i) => `${f} ${lasts[i] as string}`);
  const counts = shuffle(r, Array.from({ length: 15 }, (_, i) => 7 + i));
  const authors: Author[] = names.map((name, i) => ({
    id: i + 1, name, city: CITIES[i] as string, joined: isoDay(r, 2015, 2021), followers: int(r, 40, 9000), reviews: int(r, 3, 140),
  }));
  const used = new Set<string>();
  const recipes: Recipe[] = [];
  const authorOrder = shuffle(r, authors.flatMap((a, i) => Array.from({ length: counts[i] as number }, () => a.id)));
  const cuisineOrder = shuffle(r, authorOrder.map((_, i) => CUISINES[i % CUISINES.length] as string));
  for (const [i, authorId] of authorOrder.entries()) {
    let main, dish, style, name;
    do {
      main = pickOf(r, MAINS);
      dish = pickOf(r, DISHES);
      style = pickOf(r, STYLES);
      name = `${style[0]} ${main[0]} ${dish[0]}`;
    } while (used.has(name));
    used.add(name);
    const yieldN = pickOf(r, [2, 3, 4, 6, 6, 8]);
    recipes.push({
      id: i + 1, name, authorId, cuisine: cuisineOrder[i] as string, diets: dietsOf(main[1], dish, style, main), yield: yieldN,
      prepMin: pickOf(r, [5, 10, 15, 15, 20, 25, 30]), cookMin: int(r, 1, 12) * 5,
      rating: Math.round((3 + r() * 1.9) * 10) / 10, ratingCount: int(r, 4, 950), published: isoDay(r, 2019, 2024),
      ingredients: ingredientsOf(r, yieldN, main, dish, style), steps: stepsOf(main[0], dish[0], style[0]),
    });
  }
  separateTopRated(recipes);
  const collections: Collection[] = COLLECTIONS.map((name, i) => ({ id: i + 1, name, recipeIds: shuffle(r, recipes).slice(0, int(r, 2, 6)).map((x) => x.id).sort((a, b) => a - b) }));
  return { authors, recipes, collections };
}

/** Each cuisine's top-rated recipe is unique (no tie) and its total time differs from the other cuisines' tops. */
function separateTopRated(recipes: Recipe[]): void {
  const totals = new Set<number>();
  for (const c of CUISINES) {
    const mine = recipes.filter((x) => x.cuisine === c).sort((a, b) => b.rating - a.rating || b.ratingCount - a.ratingCount);
    const top = mine[0] as Recipe;
    for (const other of mine.slice(1)) if (other.rating >= top.rating) other.rating = Math.round((top.rating - 0.1) * 10) / 10;
    while (totals.has(top.prepMin + top.cookMin)) top.cookMin += 5;
    totals.add(top.prepMin + top.cookMin);
  }
}

export const totalOf = (x: Recipe) => x.prepMin + x.cookMin;
export const authorOf = (db: RecipeDb, x: Recipe) => db.authors.find((a) => a.id === x.authorId) as Author;

/** An amount scaled from the recipe's yield to `servings`, rounded the way the page shows it. */
export function scaled(x: Recipe, ing: Ingredient, servings: number): number {
  const v = (ing.amount * servings) / x.yield;
  if (ing.unit === 'g' || ing.unit === 'ml') return v >= 100 ? Math.round(v / 5) * 5 : Math.max(1, Math.round(v));
  return Math.round(v * 4) / 4;
}
