// RecipeBox's page pieces: the layout, recipe cards (which show the cook time only), result lists with paging,
// and the sort control.
import { esc, page } from '../../html.ts';
import { authorOf, type Recipe, type RecipeDb } from './db.ts';

export const SITE = 'RecipeBox';
const NAV: [string, string][] = [
  ['Home', '/'],
  ['Browse recipes', '/recipes'],
  ['Authors', '/authors'],
  ['My collections', '/collections'],
];
const CSS = `.tabs a{margin-right:12px} .tabs a[aria-current]{font-weight:bold} .facts{display:grid;grid-template-columns:auto 1fr;gap:2px 12px}
.facts dd{margin:0} details.menu{display:inline-block;margin-left:8px} details.menu summary{cursor:pointer;padding:0 6px;border:1px solid #ccc}
.card h3{margin:2px 0;font-size:15px} .status{background:#e8f4e8;padding:4px 8px}`;

export const layout = (title: string, body: string) => ({
  html: page({ site: SITE, title, nav: NAV, body, css: CSS }),
});

export const notFound = () => ({
  status: 404,
  html: page({ site: SITE, title: 'Not found', nav: NAV, body: '<p>That page does not exist.</p>' }),
});

export const byPopularity = (a: Recipe, b: Recipe) => b.ratingCount - a.ratingCount || a.id - b.id;
export const byRating = (a: Recipe, b: Recipe) => b.rating - a.rating || b.ratingCount - a.ratingCount || a.id - b.id;
const byNewest = (a: Recipe, b: Recipe) => b.published.localeCompare(a.published) || a.id - b.id;
const byQuickest = (a: Recipe, b: Recipe) => a.cookMin - b.cookMin || a.id - b.id;

export const SORTS: [string, string, (a: Recipe, b: Recipe) => number][] = [
  ['popular', 'Most popular', byPopularity],
  ['rating', 'Top rated', byRating],
  ['newest', 'Newest', byNewest],
  ['quickest', 'Quickest', byQuickest],
];

export function sorted(list: Recipe[], sort: string | null): Recipe[] {
  const s = SORTS.find(([k]) => k === sort) ?? (SORTS[0] as (typeof SORTS)[number]);
  return [...list].sort(s[2]);
}

/** A recipe card. The clock shows the cook time only (the total is on the recipe page). */
export function card(db: RecipeDb, x: Recipe): string {
  return `<article class="card"><h3><a href="/recipes/${x.id}">${esc(x.name)}</a></h3><p>⏱ ${x.cookMin} min · ★ ${x.rating.toFixed(1)} (${x.ratingCount}) · ${esc(x.cuisine)}</p><p class="muted">by ${esc(authorOf(db, x).name)} · ${esc(x.diets.join(', ') || 'No diet labels')}</p></article>`;
}

/** One page of cards with Previous/Next links that keep the other query parameters. */
export function paged(db: RecipeDb, list: Recipe[], query: URLSearchParams, path: string, perPage = 10): string {
  const pages = Math.max(1, Math.ceil(list.length / perPage));
  const n = Math.min(pages, Math.max(1, Number(query.get('page')) || 1));
  const href = (p: number) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    return `${path}?${q.toString()}`;
  };
  const links = [
    n > 1 ? `<a href="${esc(href(n - 1))}">Previous page</a>` : '',
    `<span>Page ${n} of ${pages}</span>`,
    n < pages ? `<a href="${esc(href(n + 1))}">Next page</a>` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const cards = list
    .slice((n - 1) * perPage, n * perPage)
    .map((x) => card(db, x))
    .join('');
  return `<section aria-label="Results">${cards || '<p>No recipes.</p>'}</section><nav aria-label="Pages">${links}</nav>`;
}

/** The sort control: one link per order (the current one is marked, not linked). */
export function sortLinks(path: string, sort: string | null): string {
  const current = sort ?? 'popular';
  const links = SORTS.map(([k, label]) =>
    k === current
      ? `<strong aria-current="true">${label}</strong>`
      : `<a href="${esc(`${path}?sort=${k}`)}">${label}</a>`,
  );
  return `<nav aria-label="Sort by">Sort by: ${links.join(' · ')}</nav>`;
}

export function searchForm(q = ''): string {
  return `<form role="search" method="get" action="/search"><label>Search recipes <input type="search" name="q" value="${esc(q)}"></label> <button>Search</button> <a href="/search/advanced">Advanced search</a></form>`;
}
