// Browsing pages: home, a department's listing (sort and rating filter tucked into "Refine ▸"), search results
// (sort only) and the product page (weight in the visitor's units; specs in three collapsed sections, the measured
// values only under "Technical details").
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { money, type Product, type ShopDb, shownStars, slug, type Units, weightText } from './db.ts';
import { notFound, shopPage } from './layout.ts';

export const SORTS: [string, string][] = [
  ['featured', 'Featured'],
  ['price-asc', 'Price: low to high'],
  ['price-desc', 'Price: high to low'],
  ['rating', 'Avg. customer review'],
];
export const MIN_RATINGS: [string, string][] = [
  ['', 'Any rating'],
  ['3.5', '3.5 & up'],
  ['4.0', '4.0 & up'],
  ['4.5', '4.5 & up'],
];

export function unitsOf(request: SiteRequest): Units {
  const u = request.cookies.units;
  return u === 'kg' || u === 'g' ? u : 'lb';
}

function sorted(products: Product[], sort: string | null): Product[] {
  const list = [...products];
  if (sort === 'price-asc') list.sort((a, b) => a.price - b.price || a.id - b.id);
  else if (sort === 'price-desc') list.sort((a, b) => b.price - a.price || a.id - b.id);
  else if (sort === 'rating') list.sort((a, b) => b.rating - a.rating || a.id - b.id);
  else list.sort((a, b) => b.ratings - a.ratings || a.id - b.id); // "Featured": most reviewed first
  return list;
}

const options = (list: [string, string][], current: string | null) =>
  list
    .map(([v, label]) => `<option value="${esc(v)}"${v === (current ?? '') ? ' selected' : ''}>${esc(label)}</option>`)
    .join('');

/** The listing table: ratings shown as the nearest half star, like the star icons they stand for. */
function listing(products: Product[]): string {
  if (!products.length) return '<p>No products match.</p>';
  const rows = products
    .map(
      (p) =>
        `<tr><td><a href="/p/${p.id}">${esc(p.name)}</a></td><td>${shownStars(p.rating).toFixed(1)} out of 5 stars</td><td>${p.ratings}</td><td>${money(p.price)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Product</th><th>Rating</th><th>Reviews</th><th>Price</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function home(db: ShopDb): SiteResponse {
  const cats = db.categories.map((c) => `<li><a href="/c/${slug(c)}">${esc(c)}</a></li>`).join('');
  return shopPage(
    'Welcome to ShopLite',
    `<h2>Shop by department</h2><ul>${cats}</ul><p class="muted">Free shipping on orders of $50 or more.</p>`,
  );
}

function department(db: ShopDb, name: string, request: SiteRequest): SiteResponse {
  const sort = request.query.get('sort');
  const min = Number.parseFloat(request.query.get('min') ?? '');
  const inDept = db.products.filter((p) => p.category === name && (Number.isNaN(min) || p.rating >= min));
  const refine = `<details${sort || request.query.get('min') ? ' open' : ''}><summary>Refine ▸</summary><form method="get" action="/c/${slug(name)}">
<div class="row"><label for="sort">Sort by</label><select id="sort" name="sort">${options(SORTS, sort)}</select></div>
<div class="row"><label for="min">Minimum rating</label><select id="min" name="min">${options(MIN_RATINGS, request.query.get('min'))}</select></div>
<button type="submit">Apply</button></form></details>`;
  const count = `<p class="muted">${inDept.length} products</p>`;
  return shopPage(name, refine + count + listing(sorted(inDept, sort)));
}

const SEARCH_SORTS: [string, string][] = [['', 'Relevance'], ...SORTS.slice(1)];

function matches(p: Product, words: string[]): boolean {
  const hay = `${p.name} ${p.brand} ${p.category}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

function search(db: ShopDb, request: SiteRequest): SiteResponse {
  const q = (request.query.get('q') ?? '').trim();
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const sort = request.query.get('sort');
  const found = words.length ? db.products.filter((p) => matches(p, words)) : [];
  // Relevance: exact name matches first, then the most reviewed.
  const ranked = sort
    ? sorted(found, sort)
    : sorted(found, 'featured').sort(
        (a, b) => Number(b.name.toLowerCase() === q.toLowerCase()) - Number(a.name.toLowerCase() === q.toLowerCase()),
      );
  const form = `<form method="get" action="/search" class="row"><input type="hidden" name="q" value="${esc(q)}"><label for="rsort">Sort results by</label><select id="rsort" name="sort">${options(SEARCH_SORTS, sort)}</select><button type="submit">Sort</button></form>`;
  return shopPage(
    `Results for "${q}"`,
    form + `<p class="muted">${ranked.length} results</p>` + listing(ranked.slice(0, 20)),
  );
}

function specValue(value: number, unit: string): string {
  return `${value} ${unit}`;
}

function productPage(db: ShopDb, product: Product, units: Units): SiteResponse {
  const p = product;
  const maker = p.specs
    .map(
      (s) =>
        `<tr><td>${esc(s.label)}</td><td>${s.claim > s.value ? 'up to' : 'as low as'} ${specValue(s.claim, s.unit)}</td></tr>`,
    )
    .join('');
  const questions = p.specs
    .map(
      (s) =>
        `<p><strong>Q:</strong> What ${esc(s.label.toLowerCase())} do you really get?<br><strong>A:</strong> About ${specValue(s.customer, s.unit)} in my experience. <span class="muted">(verified buyer)</span></p>`,
    )
    .join('');
  const tech = p.specs.map((s) => `<tr><td>${esc(s.label)}</td><td>${specValue(s.value, s.unit)}</td></tr>`).join('');
  const qty = [1, 2, 3, 4, 5].map((n) => `<option value="${n}">${n}</option>`).join('');
  const body = `<p><a href="/c/${slug(p.category)}">${esc(p.category)}</a> › ${esc(p.brand)}</p>
<p>by ${esc(p.brand)} · Rating: ${p.rating.toFixed(1)} out of 5 (${p.ratings} ratings)</p>
<p class="price">Price: ${money(p.price)}</p>
<h2>At a glance</h2><dl><dt>Brand</dt><dd>${esc(p.brand)}</dd><dt>Department</dt><dd>${esc(p.category)}</dd><dt>Weight</dt><dd>${weightText(p.weightGrams, units)}</dd></dl>
<form method="post" action="/cart/add" class="row"><input type="hidden" name="product" value="${p.id}"><label for="qty">Quantity</label><select id="qty" name="qty">${qty}</select>
<button type="submit">Add to cart</button><button type="submit" formaction="/buy-now">Buy now</button></form>
<details><summary>From the manufacturer</summary><table><tbody>${maker}</tbody></table></details>
<details><summary>Customer questions</summary>${questions}</details>
<details><summary>Technical details</summary><table><tbody>${tech}</tbody></table></details>`;
  return shopPage(p.name, body);
}

export function catalogPage(db: ShopDb, request: SiteRequest): SiteResponse | undefined {
  if (request.method !== 'GET') return undefined;
  const { path } = request;
  if (path === '/') return home(db);
  if (path === '/search') return search(db, request);
  const dept = path.match(/^\/c\/([a-z0-9-]+)$/);
  if (dept) {
    const name = db.categories.find((c) => slug(c) === dept[1]);
    return name ? department(db, name, request) : notFound('That department');
  }
  const prod = path.match(/^\/p\/(\d+)$/);
  if (prod) {
    const product = db.products.find((p) => p.id === Number(prod[1]));
    return product ? productPage(db, product, unitsOf(request)) : notFound('That product');
  }
  return undefined;
}
