// CodeHub's page chrome: the layout, the repository header with its tabs, and small shared pieces.
import { esc, page } from '../../html.ts';
import type { SiteResponse } from '../../site.ts';
import { issuesOf, pullsOf, type CodeDb, type Repo } from './db.ts';

const CSS = `
.tabs{display:flex;gap:14px;border-bottom:1px solid #ccc;padding:6px 0;margin-bottom:10px}
.tabs .count{background:#e5e7eb;border-radius:9px;padding:0 6px;font-size:12px}
.tabs .on{font-weight:bold}
.chip{background:#dbeafe;border-radius:9px;padding:0 7px;font-size:12px;margin-right:4px}
.badge{border:1px solid #999;border-radius:9px;padding:0 6px;font-size:12px;margin-left:6px}
.side{float:right;width:220px;margin-left:16px}
ul.rows{list-style:none;padding:0} ul.rows>li{border-bottom:1px solid #e5e5e5;padding:6px 0}
`;

export function layout(title: string, body: string): SiteResponse {
  return {
    html: page({
      site: 'CodeHub',
      title,
      nav: [
        ['Explore', '/'],
        ['Topics', '/topics'],
      ],
      body,
      css: CSS,
    }),
  };
}

export const notFound = (what: string): SiteResponse => ({
  status: 404,
  ...layout('Not found', `<p>${esc(what)} was not found.</p>`),
});

export const repoPath = (repo: Repo, rest = '') => `/${repo.owner}/${repo.name}${rest}`;

export type Tab = 'code' | 'issues' | 'pulls' | 'releases' | 'tags';

/** Tab names stay bare link text (counts sit beside them) so that a replayed "Click link "Issues"" finds them. */
export function repoTabs(db: CodeDb, repo: Repo, active: Tab): string {
  const openIssues = issuesOf(db, repo.full).filter((x) => x.state === 'open').length;
  const openPulls = pullsOf(db, repo.full).filter((x) => x.state === 'open').length;
  const tab = (id: Tab, label: string, rest: string, count?: number) =>
    `<span><a href="${repoPath(repo, rest)}"${id === active ? ' class="on" aria-current="page"' : ''}>${label}</a>${count === undefined ? '' : ` <span class="count">${count}</span>`}</span>`;
  return `<p class="muted">${esc(repo.description)}</p><nav class="tabs" aria-label="Repository">${tab('code', 'Code', '')}${tab('issues', 'Issues', '/issues', openIssues)}${tab('pulls', 'Pull requests', '/pulls', openPulls)}${tab('releases', 'Releases', '/releases', repo.releases.length)}${tab('tags', 'Tags', '/tags', repo.tags.length)}</nav>`;
}

export const fmt = (n: number) => n.toLocaleString('en-US');

/** One repository in a list: its full name as the link, then one line of facts. */
export function repoRow(repo: Repo): string {
  return `<li><a href="${repoPath(repo)}">${esc(repo.full)}</a><div class="muted">${esc(repo.description)}</div><div>★ ${fmt(repo.stars)} stars · ${fmt(repo.forks)} forks · ${esc(repo.language)} · Updated on ${repo.updatedAt}</div></li>`;
}

export function pager(base: string, params: URLSearchParams, pageNo: number, pages: number): string {
  if (pages <= 1) return '';
  const at = (n: number) => {
    const q = new URLSearchParams(params);
    q.set('page', String(n));
    return `${base}?${q.toString()}`;
  };
  const prev = pageNo > 1 ? `<a href="${esc(at(pageNo - 1))}">Previous page</a>` : '';
  const next = pageNo < pages ? `<a href="${esc(at(pageNo + 1))}">Next page</a>` : '';
  return `<p>${prev} Page ${pageNo} of ${pages} ${next}</p>`;
}

export function pageOf<T>(
  items: T[],
  query: URLSearchParams,
  size: number,
): { rows: T[]; pageNo: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const pageNo = Math.min(pages, Math.max(1, Number(query.get('page')) || 1));
  return { rows: items.slice((pageNo - 1) * size, pageNo * size), pageNo, pages };
}
