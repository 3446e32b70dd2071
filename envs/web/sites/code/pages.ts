// CodeHub's explore, search, topic and repository pages (overview, releases, tags).
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { latestRelease, reposInTopic, type CodeDb, type Repo } from './db.ts';
import { fmt, layout, notFound, pageOf, pager, repoPath, repoRow, repoTabs } from './ui.ts';

const searchForm = (q = '') =>
  `<form method="get" action="/search" role="search"><label>Search repositories <input name="q" value="${esc(q)}"></label> <button>Search</button></form>`;

const topicLinks = (db: CodeDb) =>
  `<ul>${db.topics.map((t) => `<li><a href="/topics/${esc(t)}">${esc(t)}</a> <span class="muted">${reposInTopic(db, t).length} repositories</span></li>`).join('')}</ul>`;

export function home(db: CodeDb): SiteResponse {
  const recent = [...db.repos].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 6);
  return layout(
    'Explore',
    `${searchForm()}<div class="side"><h2>Topics</h2>${topicLinks(db)}</div><h2>Recently updated repositories</h2><ul class="rows">${recent.map(repoRow).join('')}</ul>`,
  );
}

export function topics(db: CodeDb): SiteResponse {
  return layout('Topics', topicLinks(db));
}

export function search(db: CodeDb, req: SiteRequest): SiteResponse {
  const q = (req.query.get('q') ?? '').trim().toLowerCase();
  const hits = q
    ? db.repos.filter((x) => x.full.includes(q) || x.description.toLowerCase().includes(q) || x.topics.includes(q))
    : [];
  const exactFirst = [...hits]
    .sort((a, b) => Number(b.full === q) - Number(a.full === q) || b.stars - a.stars)
    .slice(0, 20);
  const body = `${searchForm(q)}<p>${hits.length} repository results${hits.length > 20 ? ' (showing 20)' : ''}</p><ul class="rows">${exactFirst.map(repoRow).join('')}</ul>`;
  return layout('Search', body);
}

const SORTS: [string, string, (a: Repo, b: Repo) => number][] = [
  ['updated', 'Recently updated', (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.full.localeCompare(b.full)],
  ['stars', 'Most stars', (a, b) => b.stars - a.stars],
  ['forks', 'Most forks', (a, b) => b.forks - a.forks],
  ['name', 'Name', (a, b) => a.full.localeCompare(b.full)],
];

/** A topic's repositories, 10 a page, sorted by the GitHub-style "Sort" menu (default: recently updated). */
export function topicPage(db: CodeDb, topic: string, req: SiteRequest): SiteResponse {
  if (!db.topics.includes(topic)) return notFound(`Topic ${topic}`);
  const sort = SORTS.find((s) => s[0] === req.query.get('sort')) ?? (SORTS[0] as (typeof SORTS)[number]);
  const all = [...reposInTopic(db, topic)].sort(sort[2]);
  const { rows, pageNo, pages } = pageOf(all, req.query, 10);
  const menu = `<details><summary>Sort by ${sort[1].toLowerCase()}</summary><ul>${SORTS.map(([id, label]) => `<li><a href="/topics/${esc(topic)}?sort=${id}">${label}</a></li>`).join('')}</ul></details>`;
  const params = new URLSearchParams({ sort: sort[0] });
  return layout(
    `${topic} repositories`,
    `<p>${all.length} public repositories are tagged with this topic.</p>${menu}<ul class="rows">${rows.map(repoRow).join('')}</ul>${pager(`/topics/${topic}`, params, pageNo, pages)}`,
  );
}

export function overview(db: CodeDb, repo: Repo): SiteResponse {
  const files = ['src', 'tests', 'README.md', 'LICENSE', repo.language === 'Rust' ? 'Cargo.toml' : 'Makefile'];
  const about = `<div class="side"><h2>About</h2><p>${esc(repo.description)}</p><p>${repo.topics.map((t) => `<a class="chip" href="/topics/${esc(t)}">${esc(t)}</a>`).join(' ')}</p>
<p>★ ${fmt(repo.stars)} stars · ${fmt(repo.forks)} forks</p><p>Newest tag: ${esc(repo.tags[0] ?? 'none')}</p>
<form method="post" action="${repoPath(repo, '/star')}"><button>${repo.starred ? 'Unstar' : 'Star'}</button></form></div>`;
  const table = `<table aria-label="Files"><tr><th>Name</th><th>Last change</th></tr>${files.map((f) => `<tr><td>${f}</td><td>${repo.updatedAt}</td></tr>`).join('')}</table>`;
  return layout(
    repo.full,
    `${repoTabs(db, repo, 'code')}${about}${table}<h2>README</h2><p>${esc(repo.name)}: ${esc(repo.description)}.</p>`,
  );
}

export function star(repo: Repo): SiteResponse {
  repo.stars += repo.starred ? -1 : 1;
  repo.starred = !repo.starred;
  return { redirect: repoPath(repo) };
}

/** Releases: the latest (non-pre-release) release is pinned on top, then the others newest first. */
export function releases(db: CodeDb, repo: Repo): SiteResponse {
  const latest = latestRelease(repo);
  const rest = [...repo.releases].reverse().filter((x) => x !== latest);
  const item = (x: (typeof repo.releases)[number], badge: string) =>
    `<article class="card"><h2>${esc(x.tag)}</h2><p>${badge ? `<span class="badge">${badge}</span> ` : ''}Published on ${x.date}</p></article>`;
  const list = [
    latest ? item(latest, 'Latest') : '',
    ...rest.map((x) => item(x, x.prerelease ? 'Pre-release' : '')),
  ].join('');
  return layout(
    `Releases · ${repo.full}`,
    `${repoTabs(db, repo, 'releases')}${list || '<p>There are no releases yet.</p>'}`,
  );
}

export function tags(db: CodeDb, repo: Repo): SiteResponse {
  const dates = new Map(repo.releases.map((x) => [x.tag, x.date]));
  const rows = repo.tags.map((t) => `<tr><td>${esc(t)}</td><td>${dates.get(t) ?? ''}</td></tr>`).join('');
  return layout(
    `Tags · ${repo.full}`,
    `${repoTabs(db, repo, 'tags')}<table aria-label="Tags"><tr><th>Tag</th><th>Date</th></tr>${rows}</table>`,
  );
}
