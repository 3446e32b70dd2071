// RecipeBox's request handler: home, keyword and advanced search, cuisine and browse lists, recipe pages (servings
// scaler, save button, collection picker behind the "…" menu), authors (recipes and profile tabs), collections.
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { authorOf, CUISINES, DIETS, type Recipe, type RecipeDb, scaled, totalOf } from './db.ts';
import { byPopularity, card, layout, notFound, paged, searchForm, sorted, sortLinks } from './views.ts';

export const TIME_LIMITS = [15, 20, 25, 30, 35, 40, 45, 50, 60, 75, 90];
export const slugOf = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function home(db: RecipeDb): SiteResponse {
  const cuisines = CUISINES.map((c) => `<li><a href="/cuisines/${slugOf(c)}">${esc(c)}</a></li>`).join('');
  const popular = [...db.recipes]
    .sort(byPopularity)
    .slice(0, 5)
    .map((x) => card(db, x))
    .join('');
  return layout(
    'RecipeBox',
    `${searchForm()}<h2>Browse by cuisine</h2><ul style="columns:3">${cuisines}</ul><h2>Popular this week</h2>${popular}`,
  );
}

/** Keyword search over names, cuisines, diet labels and ingredients (not authors). */
function matches(x: Recipe, q: string): boolean {
  const hay = [x.name, x.cuisine, ...x.diets, ...x.ingredients.map((i) => i.name)].join(' ').toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

function search(db: RecipeDb, query: URLSearchParams): SiteResponse {
  const q = (query.get('q') ?? '').trim();
  const found = q ? [...db.recipes].filter((x) => matches(x, q)).sort(byPopularity) : [];
  const head = q ? `<p>${found.length} recipes found for “${esc(q)}”</p>` : '<p>Type a word to search.</p>';
  return layout('Search results', `${searchForm(q)}${head}${paged(db, found, query, '/search')}`);
}

function advanced(db: RecipeDb, query: URLSearchParams): SiteResponse {
  const q = (query.get('q') ?? '').trim();
  const diet = query.get('diet') ?? '';
  const cuisineName = query.get('cuisine') ?? '';
  const max = Number(query.get('max')) || 0;
  const opt = (value: string, label: string, current: string) =>
    `<option value="${esc(value)}"${value === current ? ' selected' : ''}>${esc(label)}</option>`;
  const diets = [opt('', 'Any diet', diet), ...DIETS.map((d) => opt(d, d, diet))].join('');
  const cuisines = [opt('', 'Any cuisine', cuisineName), ...CUISINES.map((c) => opt(c, c, cuisineName))].join('');
  const times = [
    opt('', 'Any time', String(max || '')),
    ...TIME_LIMITS.map((t) => opt(String(t), `${t} minutes`, String(max))),
  ].join('');
  const form = `<form method="get" action="/search/advanced" aria-label="Advanced search"><p><label>Keywords <input name="q" value="${esc(q)}"></label></p>
<p><label>Diet <select name="diet">${diets}</select></label></p><p><label>Cuisine <select name="cuisine">${cuisines}</select></label></p><p><label>Max total time <select name="max">${times}</select></label></p>
<input type="hidden" name="go" value="1"><button>Search</button></form>`;
  if (!query.get('go')) return layout('Advanced search', form);
  const found = db.recipes
    .filter(
      (x) =>
        (!q || matches(x, q)) &&
        (!diet || x.diets.includes(diet)) &&
        (!cuisineName || x.cuisine === cuisineName) &&
        (!max || totalOf(x) <= max),
    )
    .sort(byPopularity);
  return layout(
    'Advanced search',
    `${form}<h2>Results</h2><p>${found.length} recipes found</p>${paged(db, found, query, '/search/advanced')}`,
  );
}

function cuisine(db: RecipeDb, slug: string, query: URLSearchParams): SiteResponse {
  const name = CUISINES.find((c) => slugOf(c) === slug);
  if (!name) return notFound();
  const list = sorted(
    db.recipes.filter((x) => x.cuisine === name),
    query.get('sort'),
  );
  return layout(
    `${name} recipes`,
    `${sortLinks(`/cuisines/${slug}`, query.get('sort'))}${paged(db, list, query, `/cuisines/${slug}`)}`,
  );
}

function browse(db: RecipeDb, query: URLSearchParams): SiteResponse {
  const list = sorted(db.recipes, query.get('sort'));
  return layout(
    'All recipes',
    `${searchForm()}${sortLinks('/recipes', query.get('sort'))}${paged(db, list, query, '/recipes', 12)}`,
  );
}

const amountText = (n: number, unit: string, name: string) =>
  `${Number.isInteger(n) ? n : n.toFixed(2).replace(/0$/, '')}${unit ? ` ${unit}` : ''} ${name}`;

function recipe(db: RecipeDb, x: Recipe, query: URLSearchParams): SiteResponse {
  const servings = Math.min(48, Math.max(1, Math.round(Number(query.get('servings')) || 4)));
  const msg = query.get('msg');
  const author = authorOf(db, x);
  const facts: [string, string][] = [
    ['Prep time', `${x.prepMin} min`],
    ['Cook time', `${x.cookMin} min`],
    ['Total time', `${totalOf(x)} min`],
    ['Yield', `${x.yield} servings`],
    ['Cuisine', x.cuisine],
    ['Diet', x.diets.join(', ') || 'None'],
  ];
  const options = db.collections.map((c) => `<option value="${c.id}">${esc(c.name)}</option>`).join('');
  const actions = `<div><form method="post" action="/recipes/${x.id}/save" style="display:inline"><button aria-label="Save recipe">♡ Save</button></form>
<details class="menu"><summary aria-label="More actions">…</summary><form method="post" action="/recipes/${x.id}/collect"><label>Collection <select name="collection">${options}</select></label> <button>Add to collection</button></form></details></div>`;
  const ingredients = x.ingredients
    .map((i) => `<li>${esc(amountText(scaled(x, i, servings), i.unit, i.name))}</li>`)
    .join('');
  const scaler = `<form method="get" action="/recipes/${x.id}"><label>Servings <input type="number" name="servings" min="1" max="48" value="${servings}"></label> <button>Update</button></form>`;
  const body = `${msg ? `<p class="status" role="status">${esc(msg)}</p>` : ''}<p>by <a href="/authors/${author.id}">${esc(author.name)}</a> · ★ ${x.rating.toFixed(1)} (${x.ratingCount} ratings) · published ${x.published}</p>
${actions}<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
<h2>Ingredients</h2>${scaler}<ul aria-label="Ingredients">${ingredients}</ul><h2>Steps</h2><ol>${x.steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>`;
  return layout(x.name, body);
}

function addTo(db: RecipeDb, x: Recipe, collectionId: number): SiteResponse {
  const c = db.collections.find((k) => k.id === collectionId);
  if (!c) return { redirect: `/recipes/${x.id}?msg=${encodeURIComponent('Choose a collection.')}` };
  if (!c.recipeIds.includes(x.id)) c.recipeIds.push(x.id);
  return { redirect: `/recipes/${x.id}?msg=${encodeURIComponent(`Saved to ${c.name}.`)}` };
}

function author(db: RecipeDb, id: number, query: URLSearchParams): SiteResponse {
  const a = db.authors.find((k) => k.id === id);
  if (!a) return notFound();
  const tab = query.get('tab') === 'profile' ? 'profile' : 'recipes';
  const tabs = `<nav class="tabs" aria-label="Author sections"><a href="/authors/${id}"${tab === 'recipes' ? ' aria-current="page"' : ''}>Recipes</a><a href="/authors/${id}?tab=profile"${tab === 'profile' ? ' aria-current="page"' : ''}>Profile</a></nav>`;
  const own = db.recipes.filter((x) => x.authorId === id);
  if (tab === 'recipes') {
    // Only the latest six: the full count is on the profile tab.
    const latest = [...own].sort((p, q) => q.published.localeCompare(p.published)).slice(0, 6);
    return layout(a.name, `${tabs}<h2>Latest recipes</h2>${latest.map((x) => card(db, x)).join('')}`);
  }
  const facts: [string, string][] = [
    ['Home city', a.city],
    ['Member since', a.joined.slice(0, 4)],
    ['Recipes published', String(own.length)],
    ['Followers', String(a.followers)],
    ['Reviews written', String(a.reviews)],
  ];
  return layout(
    a.name,
    `${tabs}<h2>Profile</h2><dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`,
  );
}

function authors(db: RecipeDb): SiteResponse {
  const items = [...db.authors]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((a) => `<li><a href="/authors/${a.id}">${esc(a.name)}</a> <span class="muted">${esc(a.city)}</span></li>`);
  return layout('Authors', `<ul>${items.join('')}</ul>`);
}

function collections(db: RecipeDb): SiteResponse {
  const items = db.collections.map(
    (c) =>
      `<li><a href="/collections/${c.id}">${esc(c.name)}</a> <span class="muted">${c.recipeIds.length} recipes</span></li>`,
  );
  return layout('My collections', `<ul>${items.join('')}</ul>`);
}

function collection(db: RecipeDb, id: number, query: URLSearchParams): SiteResponse {
  const c = db.collections.find((k) => k.id === id);
  if (!c) return notFound();
  const msg = query.get('msg');
  const rows = c.recipeIds
    .map((rid) => db.recipes.find((x) => x.id === rid) as Recipe)
    .map(
      (x) =>
        `<li><a href="/recipes/${x.id}">${esc(x.name)}</a> <form method="post" action="/collections/${c.id}/remove" style="display:inline"><input type="hidden" name="recipe" value="${x.id}"><button aria-label="Remove ${esc(x.name)} from ${esc(c.name)}">Remove</button></form></li>`,
    );
  const body = `${msg ? `<p class="status" role="status">${esc(msg)}</p>` : ''}<ul>${rows.join('') || '<li>No recipes yet.</li>'}</ul><p class="muted">Add recipes from any recipe page.</p>`;
  return layout(c.name, body);
}

export function handle(db: RecipeDb, req: SiteRequest): SiteResponse {
  const parts = req.path.split('/').filter(Boolean);
  const id = Number(parts[1]);
  const recipeOf = () => db.recipes.find((x) => x.id === id);
  if (req.method === 'POST') {
    const x = recipeOf();
    if (parts[0] === 'recipes' && x && parts[2] === 'save') return addTo(db, x, 1);
    if (parts[0] === 'recipes' && x && parts[2] === 'collect') return addTo(db, x, Number(req.form.get('collection')));
    if (parts[0] === 'collections' && parts[2] === 'remove') {
      const c = db.collections.find((k) => k.id === id);
      if (!c) return notFound();
      c.recipeIds = c.recipeIds.filter((r) => r !== Number(req.form.get('recipe')));
      return { redirect: `/collections/${c.id}?msg=${encodeURIComponent('Recipe removed.')}` };
    }
    return notFound();
  }
  if (parts.length === 0) return home(db);
  if (parts[0] === 'search' && parts[1] === 'advanced') return advanced(db, req.query);
  if (parts[0] === 'search' && parts.length === 1) return search(db, req.query);
  if (parts[0] === 'cuisines' && parts[1]) return cuisine(db, parts[1], req.query);
  if (parts[0] === 'recipes' && parts.length === 1) return browse(db, req.query);
  if (parts[0] === 'recipes' && parts.length === 2) {
    const x = recipeOf();
    return x ? recipe(db, x, req.query) : notFound();
  }
  if (parts[0] === 'authors') return parts.length === 1 ? authors(db) : author(db, id, req.query);
  if (parts[0] === 'collections') return parts.length === 1 ? collections(db) : collection(db, id, req.query);
  return notFound();
}
