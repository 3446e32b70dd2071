// The page frame every ShopLite page shares: header links, the search box, an optional notice.
import { esc, page } from '../../html.ts';
import type { SiteResponse } from '../../site.ts';

export const SITE_TITLE = 'ShopLite';

const NAV: [string, string][] = [
  ['Home', '/'],
  ['Cart', '/cart'],
  ['Your orders', '/orders'],
  ['Settings', '/settings'],
];

const CSS = `
form.search{margin:0 0 10px;display:flex;gap:6px} form.search input{width:320px}
.price{font-size:18px;color:#b12704;font-weight:bold}
details{border:1px solid #ddd;background:#fff;margin:6px 0;padding:4px 10px} summary{cursor:pointer;font-weight:bold}
dl{display:grid;grid-template-columns:140px auto;gap:2px 10px} dt{color:#555} dd{margin:0}
.notice{background:#fff8d6;border:1px solid #e6d27a;padding:4px 8px;margin:6px 0}
.row{display:flex;gap:8px;align-items:center;margin:6px 0}
`;

const SEARCH = `<form class="search" action="/search" method="get" role="search"><input type="search" name="q" aria-label="Search" placeholder="Search ShopLite"><button type="submit">Search</button></form>`;

export function shopPage(title: string, body: string, notice?: string | null): SiteResponse {
  const note = notice ? `<p class="notice" role="status">${esc(notice)}</p>` : '';
  return { html: page({ site: SITE_TITLE, title, nav: NAV, body: SEARCH + note + body, css: CSS }) };
}

export function notFound(what: string): SiteResponse {
  return {
    status: 404,
    ...shopPage('Not found', `<p>${esc(what)} was not found.</p><p><a href="/">Back to the home page</a></p>`),
  };
}
