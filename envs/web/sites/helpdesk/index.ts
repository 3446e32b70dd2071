// HelpDesk: a WorkArena/ServiceNow-like ticketing site — incident tickets (number, title, category, priority,
// assignee, status), requesters, agents and a knowledge base. Changes go through POST forms and redirects.
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse, WebSite } from '../../site.ts';
import { createDb, type HelpdeskDb } from './db.ts';
import { kbPages } from './kb.ts';
import { notFound, render, SITE_TITLE } from './layout.ts';
import { peoplePages } from './people.ts';
import { TEMPLATES } from './templates.ts';
import { ticketPages, ticketRows } from './tickets.ts';

function home(db: HelpdeskDb): SiteResponse {
  const mine = db.tickets
    .filter((t) => t.assignee === db.me && t.status !== 'Closed')
    .sort((a, b) => b.id - a.id)
    .slice(0, 5);
  const body = `<p>Signed in as ${esc(db.me)}.</p><form method="get" action="/tickets"><label>Search tickets <input name="q"></label><button type="submit">Search</button></form>
<h2>My open tickets</h2>${ticketRows(db, mine)}`;
  return render('Service desk home', body);
}

function handle(db: HelpdeskDb, r: SiteRequest): SiteResponse {
  if (r.path === '/') return home(db);
  return ticketPages(db, r) ?? peoplePages(db, r) ?? kbPages(db, r) ?? notFound('page');
}

export const helpdeskSite: WebSite<HelpdeskDb> = {
  name: 'helpdesk',
  title: SITE_TITLE,
  description:
    'HelpDesk is a ServiceNow-like IT service desk: a paginated incident list with quick status links and a Filter panel, read-only ticket pages with an edit form behind "More actions", a tabbed new-ticket form, requester pages with bulk Close/Resolve behind a confirm dialog, and a knowledge base whose articles keep an edit history.',
  createDb,
  handle,
  templates: TEMPLATES,
};
