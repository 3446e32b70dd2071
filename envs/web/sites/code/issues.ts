// CodeHub's issue pages: the list (open by default, filtered by one label; the sidebar's label badges count every
// state), the labels page, the new-issue form (title and description only), and the issue page whose sidebar holds
// the label picker (checkboxes that take effect on "Apply labels").
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { isoDaysAgo, issuesOf, nextNumber, type CodeDb, type Issue, type Repo } from './db.ts';
import { layout, notFound, pageOf, pager, repoPath, repoTabs } from './ui.ts';

const chips = (labels: string[]) => labels.map((l) => `<span class="chip">${esc(l)}</span>`).join('');
const newestFirst = (a: Issue, b: Issue) => b.createdAt.localeCompare(a.createdAt) || b.number - a.number;

function issueRow(repo: Repo, x: Issue): string {
  const closed = x.state === 'closed' ? '<span class="badge">Closed</span>' : '';
  return `<li><a href="${repoPath(repo, `/issues/${x.number}`)}">${esc(x.title)}</a> ${chips(x.labels)}${closed}<div class="muted">#${x.number} opened on ${x.createdAt} by ${esc(x.author)}</div></li>`;
}

export function issueList(db: CodeDb, repo: Repo, req: SiteRequest): SiteResponse {
  const state = req.query.get('state') === 'closed' ? 'closed' : 'open';
  const label = db.labels.find((l) => l === req.query.get('label'));
  const all = issuesOf(db, repo.full);
  const withLabel = label ? all.filter((x) => x.labels.includes(label)) : all;
  const shown = withLabel.filter((x) => x.state === state).sort(newestFirst);
  const { rows, pageNo, pages } = pageOf(shown, req.query, 25);
  const href = (params: Record<string, string>) =>
    esc(`${repoPath(repo, '/issues')}?${new URLSearchParams(params).toString()}`);
  const keep: Record<string, string> = label ? { label } : {};
  const count = (s: Issue['state']) => withLabel.filter((x) => x.state === s).length;
  const states = `<p><a href="${href({ ...keep, state: 'open' })}">Open</a> <span class="count">${count('open')}</span> · <a href="${href({ ...keep, state: 'closed' })}">Closed</a> <span class="count">${count('closed')}</span></p>`;
  const side = `<div class="side"><h2>Filter by label</h2><ul>${db.labels
    .map(
      (l) =>
        `<li><a href="${href({ label: l })}">${esc(l)}</a><span class="badge" title="issues with this label">${all.filter((x) => x.labels.includes(l)).length}</span></li>`,
    )
    .join('')}</ul><p><a href="${repoPath(repo, '/labels')}">Manage labels</a></p></div>`;
  const summary = `<p>${shown.length} ${state} issue${shown.length === 1 ? '' : 's'}${label ? ` labelled ${esc(label)}` : ''}${label ? ` · <a href="${href({ state })}">Clear label filter</a>` : ''}</p>`;
  const body = `${repoTabs(db, repo, 'issues')}${side}<p><a href="${repoPath(repo, '/issues/new')}">New issue</a></p>${states}${summary}<ul class="rows">${rows.map((x) => issueRow(repo, x)).join('')}</ul>${pager(repoPath(repo, '/issues'), new URLSearchParams({ ...keep, state }), pageNo, pages)}`;
  return layout(`Issues · ${repo.full}`, body);
}

export function labelsPage(db: CodeDb, repo: Repo): SiteResponse {
  const all = issuesOf(db, repo.full);
  const rows = db.labels
    .map(
      (l) =>
        `<tr><td><a href="${esc(`${repoPath(repo, '/issues')}?label=${encodeURIComponent(l)}`)}">${esc(l)}</a></td><td>${all.filter((x) => x.labels.includes(l)).length} issues</td></tr>`,
    )
    .join('');
  return layout(
    `Labels · ${repo.full}`,
    `${repoTabs(db, repo, 'issues')}<table aria-label="Labels"><tr><th>Label</th><th>Issues</th></tr>${rows}</table>`,
  );
}

export function newIssueForm(db: CodeDb, repo: Repo, error = ''): SiteResponse {
  const form = `${error ? `<p role="alert">${esc(error)}</p>` : ''}<form method="post" action="${repoPath(repo, '/issues')}">
<p><label>Title <input name="title" size="50"></label></p>
<p><label>Description <textarea name="body" rows="5" cols="60"></textarea></label></p>
<p><button>Submit new issue</button></p></form>`;
  return layout(`New issue · ${repo.full}`, `${repoTabs(db, repo, 'issues')}${form}`);
}

export function createIssue(db: CodeDb, repo: Repo, req: SiteRequest): SiteResponse {
  const title = (req.form.get('title') ?? '').trim();
  if (!title) return newIssueForm(db, repo, 'A title is required.');
  const issue: Issue = {
    repo: repo.full,
    number: nextNumber(db, repo.full),
    title,
    body: (req.form.get('body') ?? '').trim(),
    author: db.me,
    state: 'open',
    labels: [],
    createdAt: isoDaysAgo(0),
  };
  db.issues.push(issue);
  return { redirect: repoPath(repo, `/issues/${issue.number}`) };
}

export function issuePage(db: CodeDb, repo: Repo, issue: Issue): SiteResponse {
  const base = repoPath(repo, `/issues/${issue.number}`);
  const picker = `<details><summary>Labels</summary><form method="post" action="${base}/labels">${db.labels
    .map(
      (l) =>
        `<div><label><input type="checkbox" name="label" value="${esc(l)}"${issue.labels.includes(l) ? ' checked' : ''}> ${esc(l)}</label></div>`,
    )
    .join('')}<button>Apply labels</button></form></details>`;
  const side = `<div class="side">${picker}<p>${issue.labels.length ? chips(issue.labels) : 'No labels'}</p><form method="post" action="${base}/state"><button>${issue.state === 'open' ? 'Close issue' : 'Reopen issue'}</button></form></div>`;
  const body = `${repoTabs(db, repo, 'issues')}${side}<p><span class="badge">${issue.state === 'open' ? 'Open' : 'Closed'}</span> #${issue.number} opened on ${issue.createdAt} by ${esc(issue.author)}</p><div class="card">${esc(issue.body || 'No description provided.')}</div>`;
  return layout(issue.title, body);
}

export function setLabels(db: CodeDb, repo: Repo, issue: Issue, req: SiteRequest): SiteResponse {
  issue.labels = db.labels.filter((l) => req.form.getAll('label').includes(l));
  return { redirect: repoPath(repo, `/issues/${issue.number}`) };
}

export function toggleState(repo: Repo, issue: Issue): SiteResponse {
  issue.state = issue.state === 'open' ? 'closed' : 'open';
  return { redirect: repoPath(repo, `/issues/${issue.number}`) };
}

export const findIssue = (db: CodeDb, repo: Repo, n: number) =>
  db.issues.find((x) => x.repo === repo.full && x.number === n);
export const missingIssue = (n: number) => notFound(`Issue #${n}`);
