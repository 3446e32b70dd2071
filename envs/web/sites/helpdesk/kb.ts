// Knowledge base: the article list, and an article with three tabs. The article tab names its author and reviewer;
// who edited it last is only on the History tab.
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import type { Article, HelpdeskDb } from './db.ts';
import { fields, idOf, linkTabs, notFound, render } from './layout.ts';

function listPage(db: HelpdeskDb, q: URLSearchParams): SiteResponse {
  const text = (q.get('q') ?? '').trim().toLowerCase();
  const shown = db.articles.filter((a) => !text || a.title.toLowerCase().includes(text));
  const rows = shown.map(
    (a) =>
      `<tr><td>${esc(a.number)}</td><td><a href="/kb/${a.id}">${esc(a.title)}</a></td><td>${esc(a.category)}</td></tr>`,
  );
  return render(
    'Knowledge base',
    `<form method="get" action="/kb"><label>Search articles <input name="q" value="${esc(q.get('q') ?? '')}"></label><button type="submit">Search</button></form>
<table><thead><tr><th>Number</th><th>Title</th><th>Category</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
}

function articleTab(a: Article): string {
  const published = a.history[0]?.date ?? '';
  return `${fields([
    ['Number', esc(a.number)],
    ['Category', esc(a.category)],
    ['Author', esc(a.author)],
    ['Reviewed by', esc(a.reviewer)],
    ['Published', esc(published)],
  ])}${a.body.map((p) => `<p>${esc(p)}</p>`).join('')}`;
}

function historyTab(a: Article): string {
  const newestFirst = [...a.history].reverse();
  const last = newestFirst[0];
  const rows = newestFirst.map(
    (e) => `<tr><td>${e.version}</td><td>${esc(e.editor)}</td><td>${esc(e.date)}</td><td>${esc(e.change)}</td></tr>`,
  );
  return `${last ? `<p>Last edited by: ${esc(last.editor)}</p>` : ''}<table><thead><tr><th>Version</th><th>Edited by</th><th>Date</th><th>Change</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function feedbackTab(a: Article): string {
  return `<ul>${a.feedback.map((f) => `<li>${esc(f.by)}: ${esc(f.text)}</li>`).join('')}</ul>`;
}

function articlePage(a: Article, tab: string): SiteResponse {
  const tabs: [string, string][] = [
    ['Article', `/kb/${a.id}`],
    ['History', `/kb/${a.id}?tab=history`],
    ['Feedback', `/kb/${a.id}?tab=feedback`],
  ];
  const active = tab === 'history' ? 'History' : tab === 'feedback' ? 'Feedback' : 'Article';
  const inner = active === 'History' ? historyTab(a) : active === 'Feedback' ? feedbackTab(a) : articleTab(a);
  return render(a.title, `${linkTabs(tabs, active)}<div role="tabpanel" aria-label="${active}">${inner}</div>`);
}

/** Routes under /kb; undefined when the path is not a knowledge page. */
export function kbPages(db: HelpdeskDb, r: SiteRequest): SiteResponse | undefined {
  if (r.path === '/kb') return listPage(db, r.query);
  const m = r.path.match(/^\/kb\/(\d+)$/);
  if (!m) return undefined;
  const a = db.articles.find((x) => x.id === idOf(m[1]));
  return a ? articlePage(a, r.query.get('tab') ?? '') : notFound('article');
}
