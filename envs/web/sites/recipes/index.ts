// RecipeBox: an Allrecipes-like mini-site (recipes with ingredients, servings, prep and cook times, ratings,
// authors, diet labels, cuisines; the user's collections).
import type { WebSite } from '../../site.ts';
import { createDb, type RecipeDb } from './db.ts';
import { handle } from './pages.ts';
import { TEMPLATES } from './templates.ts';

export const recipesSite: WebSite<RecipeDb> = {
  name: 'recipes',
  title: 'RecipeBox',
  description:
    "RecipeBox, a recipe site: about 210 recipes by 15 authors, each with prep and cook times, a yield, ingredients, diet labels, a cuisine and a star rating; keyword and advanced search, cuisine pages with a sort control, author pages with Recipes and Profile tabs, and the user's collections. Tasks find recipes by diet and time, scale ingredient amounts, count an author's recipes, save recipes to collections and read total times.",
  createDb,
  handle,
  templates: TEMPLATES,
};
