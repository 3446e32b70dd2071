// HelpDesk's page frame and small HTML pieces shared by its pages.
import { esc, page } from '../../html.ts';
import type { SiteResponse } from '../../site.ts';

export const SITE_TITLE = 'HelpDesk';

const NAV: [string, string][] = [
  ['Home', '/'],
  ['Tickets', '/tickets'],
  ['New ticket', '/tickets/new'],
  ['Knowledge', '/kb'],
  ['Users', '/users'],
  ['Agents', '/agents'],
];

const CSS = `
[role=tablist]{display:flex;gap:4px;margin:8px 0;border-bottom:1px solid #bbb}
[role=tab]{padding:4px 12px;border:1px solid #bbb;border-bottom:none;background:#eee;color:#222;text-decoration:none;cursor:pointer;font:inherit}
[role=tab][aria-selected=true]{background:#fff;font-weight:bold}
dl.fields{display:grid;grid-template-columns:140px 1fr;gap:2px 12px} dl.fields dd{margin:0}
.error{color:#a00;font-weight:bold} .flash{color:#060}
details{margin:8px 0} summary{cursor:pointer;font-weight:bold}
label{display:block;margin:4px 0} .modal[hidden]{display:none}
`;

export function render(title: string, body: string): SiteResponse {
  return { html: page({ site: SITE_TITLE, title, nav: NAV, body, css: CSS }) };
}

export function notFound(what: string): SiteResponse {
  return { status: 404, ...render('Not found', `<p>No ${esc(what)} here.</p>`) };
}

export function fields(rows: [string, string][]): string {
  return `<dl class="fields">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

export function options(values: readonly string[], selected: string, labels: Record<string, string> = {}): string {
  return values.map((v) => `<option value="${esc(v)}"${v === selected ? ' selected' : ''}>${esc(labels[v] ?? v)}</option>`).join('');
}

export function select(label: string, name: string, values: readonly string[], selected: string, labels: Record<string, string> = {}): string {
  return `<label>${esc(label)} <select name="${esc(name)}">${options(values, selected, labels)}</select></label>`;
}

/** Server-rendered tabs (links): each tab is its own page. */
export function linkTabs(tabs: [string, string][], active: string): string {
  return `<nav role="tablist" aria-label="Sections">${tabs.map(([label, href]) => `<a role="tab" href="${esc(href)}" aria-selected="${label === active}">${esc(label)}</a>`).join('')}</nav>`;
}

export const idOf = (s: string | undefined): number => (s && /^\d+$/.test(s) ? Number(s) : NaN);
export const sameText = (a: string, b: string): boolean => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();
