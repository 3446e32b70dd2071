// Ticket pages: the paginated list (quick status links, a search box, and a "Filter" panel whose Apply shows the
// match count), a ticket's read-only view (editing lives behind "More actions" → "Edit record"), the edit form, and
// the new-ticket form (category on the "Classification" tab; a required knowledge-base checkbox).
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { CATEGORIES, GROUPS, type HelpdeskDb, PRIORITIES, STATUSES, type Ticket, UNCLASSIFIED } from './db.ts';
import { fields, idOf, notFound, render, select } from './layout.ts';

const PAGE_SIZE = 15;
const ANY = '';

const agentLink = (db: HelpdeskDb, name: string) => {
  const a = db.agents.find((x) => x.name === name);
  return a ? `<a href="/agents/${a.id}">${esc(a.name)}</a>` : '(unassigned)';
};
const userLink = (db: HelpdeskDb, name: string) => {
  const u = db.users.find((x) => x.name === name);
  return u ? `<a href="/users/${u.id}">${esc(u.name)}</a>` : esc(name);
};

export function ticketRows(db: HelpdeskDb, tickets: Ticket[], lead = (_t: Ticket) => ''): string {
  const head =
    '<tr><th>Number</th><th>Title</th><th>Category</th><th>Priority</th><th>Status</th><th>Assigned to</th><th>Requester</th></tr>';
  const rows = tickets.map(
    (t) =>
      `<tr><td>${lead(t)}<a href="/tickets/${t.id}">${esc(t.number)}</a></td><td>${esc(t.title)}</td><td>${esc(t.category)}</td><td>${esc(t.priority)}</td><td>${esc(t.status)}</td><td>${esc(t.assignee || '(unassigned)')}</td><td>${esc(t.requester)}</td></tr>`,
  );
  return `<table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

function listPage(db: HelpdeskDb, q: URLSearchParams): SiteResponse {
  const text = (q.get('q') ?? '').trim();
  const exact = db.tickets.find((t) => t.number.toLowerCase() === text.toLowerCase());
  if (exact) return { redirect: `/tickets/${exact.id}` };
  const status = q.get('status') ?? ANY;
  const priority = q.get('priority') ?? ANY;
  const category = q.get('category') ?? ANY;
  const applied = q.get('apply') === '1';
  const matches = db.tickets
    .filter((t) => !text || t.title.toLowerCase().includes(text.toLowerCase()))
    .filter(
      (t) =>
        (!status || t.status === status) &&
        (!priority || t.priority === priority) &&
        (!category || t.category === category),
    )
    .sort((a, b) => b.id - a.id);
  const pages = Math.max(1, Math.ceil(matches.length / PAGE_SIZE));
  const at = Math.min(pages, Math.max(1, idOf(q.get('page') ?? '1') || 1));
  const link = (p: number) => {
    const next = new URLSearchParams(q);
    next.set('page', String(p));
    return `/tickets?${next}`;
  };
  const quick = ['All', ...STATUSES]
    .map((s) => `<a href="/tickets${s === 'All' ? '' : `?status=${encodeURIComponent(s)}`}">${esc(s)}</a>`)
    .join(' · ');
  const anyLabel = { [ANY]: 'Any' };
  const filter = `<details${applied ? ' open' : ''}><summary>Filter</summary><form method="get" action="/tickets">
${select('Status', 'status', [ANY, ...STATUSES], status, anyLabel)}${select('Priority', 'priority', [ANY, ...PRIORITIES], priority, anyLabel)}${select('Category', 'category', [ANY, ...CATEGORIES], category, anyLabel)}
<input type="hidden" name="apply" value="1"><button type="submit">Apply</button></form></details>`;
  const count = applied
    ? `<p><strong>${matches.length} ${matches.length === 1 ? 'ticket matches' : 'tickets match'}</strong></p>`
    : '';
  const nav = [
    at > 1 ? `<a href="${esc(link(at - 1))}">Previous page</a>` : '',
    `<span>Page ${at}</span>`,
    at < pages ? `<a href="${esc(link(at + 1))}">Next page</a>` : '',
  ].join(' ');
  const body = `<form method="get" action="/tickets"><label>Search tickets <input name="q" value="${esc(text)}"></label><button type="submit">Search</button></form>
<nav aria-label="Quick filters">${quick}</nav>${filter}${count}${ticketRows(db, matches.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE))}<p>${nav}</p>`;
  return render('Tickets', body);
}

function viewPage(db: HelpdeskDb, t: Ticket, q: URLSearchParams): SiteResponse {
  const flash = q.get('saved')
    ? '<p class="flash">Changes saved.</p>'
    : q.get('created')
      ? `<p class="flash">Ticket ${esc(t.number)} created.</p>`
      : '';
  const notes = t.notes.length
    ? `<ul>${t.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`
    : '<p class="muted">No work notes yet.</p>';
  const body = `${flash}${fields([
    ['Number', esc(t.number)],
    ['Title', esc(t.title)],
    ['Category', esc(t.category)],
    ['Priority', esc(t.priority)],
    ['Status', esc(t.status)],
    ['Assigned to', agentLink(db, t.assignee)],
    ['Requester', userLink(db, t.requester)],
    ['Opened', esc(t.opened)],
  ])}
<details><summary>More actions</summary><p><a href="/tickets/${t.id}/edit">Edit record</a> · <a href="/tickets/${t.id}/print">Print view</a></p></details>
<h2>Work notes</h2>${notes}<form method="post" action="/tickets/${t.id}/notes"><label>Work note <input name="note"></label><button type="submit">Post note</button></form>`;
  return render(`${t.number}: ${t.title}`, body);
}

function printPage(t: Ticket): SiteResponse {
  return render(
    `Print ${t.number}`,
    `<pre>${esc([t.number, t.title, t.category, t.priority, t.status, t.assignee || '(unassigned)', t.requester].join('\n'))}</pre><p><a href="/tickets/${t.id}">Back to ticket</a></p>`,
  );
}

function editPage(db: HelpdeskDb, t: Ticket): SiteResponse {
  const agents = ['', ...db.agents.map((a) => a.name)];
  const body = `<form method="post" action="/tickets/${t.id}/edit"><label>Title <input name="title" value="${esc(t.title)}"></label>
${select('Category', 'category', [UNCLASSIFIED, ...CATEGORIES], t.category)}${select('Priority', 'priority', PRIORITIES, t.priority)}${select('Status', 'status', STATUSES, t.status)}${select('Assigned to', 'assignee', agents, t.assignee, { '': '(unassigned)' })}
<button type="submit">Save</button> <a href="/tickets/${t.id}">Cancel</a></form>`;
  return render(`Edit ${t.number}`, body);
}

function saveEdit(t: Ticket, db: HelpdeskDb, form: URLSearchParams): SiteResponse {
  const pickValid = (value: string | null, allowed: readonly string[], current: string) =>
    value !== null && allowed.includes(value) ? value : current;
  const title = (form.get('title') ?? '').trim();
  if (title && title !== t.title) t.title = title;
  t.category = pickValid(form.get('category'), [UNCLASSIFIED, ...CATEGORIES], t.category);
  t.priority = pickValid(form.get('priority'), PRIORITIES, t.priority);
  t.status = pickValid(form.get('status'), STATUSES, t.status);
  t.assignee = pickValid(form.get('assignee'), ['', ...db.agents.map((a) => a.name)], t.assignee);
  return { redirect: `/tickets/${t.id}?saved=1` };
}

interface Draft {
  title: string;
  priority: string;
  category: string;
  notes: string;
  kb: boolean;
}

const TABS: [string, string][] = [
  ['Details', 'details'],
  ['Routing', 'routing'],
  ['Classification', 'classification'],
  ['Notes', 'notes'],
];

// Client-side tabs, so that switching keeps what was typed; hidden panels are out of the accessibility tree.
const TAB_SCRIPT = `<script>for(const t of document.querySelectorAll('button[role=tab]'))t.addEventListener('click',()=>{for(const u of document.querySelectorAll('button[role=tab]')){const on=u===t;u.setAttribute('aria-selected',String(on));document.getElementById(u.getAttribute('aria-controls')).hidden=!on;}});</script>`;

function newPage(d: Draft, errors: string[]): SiteResponse {
  const tabs = TABS.map(
    ([label, id], i) =>
      `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}" aria-selected="${i === 0}">${label}</button>`,
  ).join('');
  const panel = (id: string, inner: string, shown: boolean) =>
    `<div role="tabpanel" id="panel-${id}" aria-labelledby="tab-${id}"${shown ? '' : ' hidden'}>${inner}</div>`;
  const body = `${errors.map((e) => `<p class="error">${esc(e)}</p>`).join('')}<form method="post" action="/tickets/new">
<div role="tablist" aria-label="Form sections">${tabs}</div>
${panel('details', `<label>Title <input name="title" value="${esc(d.title)}"></label>${select('Priority', 'priority', PRIORITIES, d.priority)}`, true)}
${panel('classification', `${select('Category', 'category', [UNCLASSIFIED, ...CATEGORIES], d.category)}`, false)}
${panel('routing', select('Assignment group', 'group', ['Auto', ...GROUPS], 'Auto'), false)}
${panel('notes', `<label>Work notes <textarea name="notes" rows="3">${esc(d.notes)}</textarea></label>`, false)}
<label><input type="checkbox" name="kb" value="1"${d.kb ? ' checked' : ''}> I checked the knowledge base</label>
<button type="submit">Submit</button></form>${TAB_SCRIPT}`;
  return render('New ticket', body);
}

function createTicket(db: HelpdeskDb, form: URLSearchParams): SiteResponse {
  const d: Draft = {
    title: (form.get('title') ?? '').trim(),
    priority: PRIORITIES.includes(form.get('priority') as never) ? (form.get('priority') as string) : 'Moderate',
    category: CATEGORIES.includes(form.get('category') as never) ? (form.get('category') as string) : UNCLASSIFIED,
    notes: (form.get('notes') ?? '').trim(),
    kb: form.get('kb') === '1',
  };
  const errors = [
    ...(d.title ? [] : ['Title is required.']),
    ...(d.kb ? [] : ['Confirm that you checked the knowledge base first.']),
  ];
  if (errors.length) return newPage(d, errors);
  const id = Math.max(0, ...db.tickets.map((t) => t.id)) + 1;
  db.tickets.push({
    id,
    number: `INC00${10000 + id}`,
    title: d.title,
    category: d.category,
    priority: d.priority,
    status: 'New',
    assignee: '',
    requester: db.me,
    opened: '2024-06-30',
    notes: d.notes ? [d.notes] : [],
  });
  return { redirect: `/tickets/${id}?created=1` };
}

/** Routes under /tickets; undefined when the path is not a ticket page. */
export function ticketPages(db: HelpdeskDb, r: SiteRequest): SiteResponse | undefined {
  if (r.path === '/tickets') return listPage(db, r.query);
  if (r.path === '/tickets/new')
    return r.method === 'POST'
      ? createTicket(db, r.form)
      : newPage({ title: '', priority: 'Moderate', category: UNCLASSIFIED, notes: '', kb: false }, []);
  const m = r.path.match(/^\/tickets\/(\d+)(?:\/(edit|notes|print))?$/);
  if (!m) return undefined;
  const t = db.tickets.find((x) => x.id === idOf(m[1]));
  if (!t) return notFound('ticket');
  if (m[2] === 'edit') return r.method === 'POST' ? saveEdit(t, db, r.form) : editPage(db, t);
  if (m[2] === 'print') return printPage(t);
  if (m[2] === 'notes' && r.method === 'POST') {
    const note = (r.form.get('note') ?? '').trim();
    if (note) t.notes.push(note);
    return { redirect: `/tickets/${t.id}` };
  }
  return viewPage(db, t, r.query);
}
