// CodeHub's pull requests: the list (open by default; "Closed" also holds merged ones; the filter box searches
// within the state shown) and the pull request page with its author.
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { pullsOf, type CodeDb, type Pull, type Repo } from './db.ts';
import { layout, repoPath, repoTabs } from './ui.ts';

const STATE_BADGE: Record<Pull['state'], string> = { open: 'Open', closed: 'Closed', merged: 'Merged' };

export function pullList(db: CodeDb, repo: Repo, req: SiteRequest): SiteResponse {
  const state = req.query.get('state') === 'closed' ? 'closed' : 'open';
  const q = (req.query.get('q') ?? '').trim().toLowerCase();
  const all = pullsOf(db, repo.full);
  const inState = (x: Pull) => (state === 'open' ? x.state === 'open' : x.state !== 'open');
  const shown = all
    .filter((x) => inState(x) && (!q || x.title.toLowerCase().includes(q)))
    .sort((a, b) => b.number - a.number);
  const base = repoPath(repo, '/pulls');
  const count = (open: boolean) => all.filter((x) => (x.state === 'open') === open).length;
  const states = `<p><a href="${base}?state=open">Open</a> <span class="count">${count(true)}</span> · <a href="${base}?state=closed">Closed</a> <span class="count">${count(false)}</span></p>`;
  const filter = `<form method="get" action="${base}" role="search"><input type="hidden" name="state" value="${state}"><label>Filter pull requests <input name="q" value="${esc(q)}"></label> <button>Filter</button></form>`;
  const rows = shown
    .map(
      (x) =>
        `<li><a href="${base}/${x.number}">${esc(x.title)}</a>${x.state === 'open' ? '' : ` <span class="badge">${STATE_BADGE[x.state]}</span>`}<div class="muted">#${x.number} opened on ${x.createdAt} by ${esc(x.author)}</div></li>`,
    )
    .join('');
  const summary = `<p>${shown.length} ${state} pull request${shown.length === 1 ? '' : 's'}${q ? ` matching "${esc(q)}"` : ''}</p>`;
  return layout(
    `Pull requests · ${repo.full}`,
    `${repoTabs(db, repo, 'pulls')}${filter}${states}${summary}<ul class="rows">${rows}</ul>`,
  );
}

export function pullPage(db: CodeDb, repo: Repo, pull: Pull): SiteResponse {
  const merged = pull.state === 'merged' ? `<dt>Merged by</dt><dd>${esc(pull.mergedBy)}</dd>` : '';
  const facts = `<dl><dt>Author</dt><dd>${esc(pull.author)}</dd><dt>Branch</dt><dd>${esc(pull.branch)}</dd>${merged}<dt>Opened on</dt><dd>${pull.createdAt}</dd></dl>`;
  return layout(
    pull.title,
    `${repoTabs(db, repo, 'pulls')}<p><span class="badge">${STATE_BADGE[pull.state]}</span> Pull request #${pull.number}</p>${facts}`,
  );
}
