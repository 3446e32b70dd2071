// People pages: requesters (users) with their tickets and the bulk Close/Resolve bar, and agents with what they
// hold. The bulk bar opens a confirm dialog whose "Close" button only dismisses it; "Continue" applies the action.
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import type { HelpdeskDb, User } from './db.ts';
import { fields, idOf, notFound, render } from './layout.ts';
import { ticketRows } from './tickets.ts';

const BULK: Record<string, { status: string; verb: string }> = {
  close: { status: 'Closed', verb: 'closed' },
  resolve: { status: 'Resolved', verb: 'resolved' },
};

function usersPage(db: HelpdeskDb): SiteResponse {
  const rows = db.users.map(
    (u) =>
      `<tr><td><a href="/users/${u.id}">${esc(u.name)}</a></td><td>${esc(u.department)}</td><td>${db.tickets.filter((t) => t.requester === u.name).length}</td></tr>`,
  );
  return render(
    'Users',
    `<table><thead><tr><th>Name</th><th>Department</th><th>Tickets</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
}

// Select-all and the dialog are client-side: the dialog only opens, names the action, and dismisses.
const BULK_SCRIPT = `<script>(()=>{const f=document.getElementById('bulk'),d=document.getElementById('dlg');
document.getElementById('all').addEventListener('change',e=>{for(const c of f.querySelectorAll('input[name=ids]'))c.checked=e.target.checked;});
for(const b of f.querySelectorAll('button[data-action]'))b.addEventListener('click',()=>{f.elements.action.value=b.dataset.action;const n=f.querySelectorAll('input[name=ids]:checked').length;document.getElementById('dlg-title').textContent=(b.dataset.action==='close'?'Close ':'Resolve ')+n+' selected tickets?';d.hidden=false;});
document.getElementById('dlg-x').addEventListener('click',()=>{d.hidden=true;});})();</script>`;

function userPage(db: HelpdeskDb, u: User, q: URLSearchParams): SiteResponse {
  const mine = db.tickets.filter((t) => t.requester === u.name).sort((a, b) => b.id - a.id);
  const done = BULK[q.get('action') ?? ''];
  const flash = done ? `<p class="flash">${esc(q.get('done') ?? '0')} tickets ${done.verb}.</p>` : '';
  const box = (t: { id: number; number: string }) =>
    `<input type="checkbox" name="ids" value="${t.id}" aria-label="Select ${esc(t.number)}"> `;
  const body = `${flash}${fields([
    ['Name', esc(u.name)],
    ['Department', esc(u.department)],
  ])}<h2>Tickets requested</h2>
<form id="bulk" method="post" action="/users/${u.id}/bulk"><input type="hidden" name="action" value="">
<label><input type="checkbox" id="all"> Select all</label>${ticketRows(db, mine, box)}
<p><button type="button" data-action="close">Close selected</button> <button type="button" data-action="resolve">Resolve selected</button></p>
<div class="modal" id="dlg" role="dialog" aria-modal="true" aria-labelledby="dlg-title" hidden><div>
<button type="button" id="dlg-x" aria-label="Close" style="float:right">×</button><h2 id="dlg-title">Selected tickets</h2>
<p>The requester is notified of the change.</p><button type="submit">Continue</button></div></div></form>${BULK_SCRIPT}`;
  return render(u.name, body);
}

function bulk(db: HelpdeskDb, u: User, form: URLSearchParams): SiteResponse {
  const action = BULK[form.get('action') ?? ''];
  if (!action) return { redirect: `/users/${u.id}` };
  const ids = new Set(form.getAll('ids').map(Number));
  const chosen = db.tickets.filter((t) => t.requester === u.name && ids.has(t.id));
  for (const t of chosen) if (t.status !== action.status) t.status = action.status;
  return { redirect: `/users/${u.id}?action=${form.get('action')}&done=${chosen.length}` };
}

function agentsPage(db: HelpdeskDb): SiteResponse {
  const rows = db.agents.map(
    (a) =>
      `<tr><td><a href="/agents/${a.id}">${esc(a.name)}</a></td><td>${esc(a.group)}</td><td>${db.tickets.filter((t) => t.assignee === a.name && t.status !== 'Closed').length}</td></tr>`,
  );
  return render(
    'Agents',
    `<table><thead><tr><th>Name</th><th>Group</th><th>Open tickets</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  );
}

function agentPage(db: HelpdeskDb, id: number): SiteResponse {
  const a = db.agents.find((x) => x.id === id);
  if (!a) return notFound('agent');
  const held = db.tickets
    .filter((t) => t.assignee === a.name && t.status !== 'Closed')
    .sort((x, y) => y.id - x.id)
    .slice(0, 20);
  return render(
    a.name,
    `${fields([
      ['Name', esc(a.name)],
      ['Group', esc(a.group)],
    ])}<h2>Assigned tickets</h2>${ticketRows(db, held)}`,
  );
}

/** Routes under /users and /agents; undefined when the path is not one of them. */
export function peoplePages(db: HelpdeskDb, r: SiteRequest): SiteResponse | undefined {
  if (r.path === '/users') return usersPage(db);
  if (r.path === '/agents') return agentsPage(db);
  const a = r.path.match(/^\/agents\/(\d+)$/);
  if (a) return agentPage(db, idOf(a[1]));
  const m = r.path.match(/^\/users\/(\d+)(\/bulk)?$/);
  if (!m) return undefined;
  const u = db.users.find((x) => x.id === idOf(m[1]));
  if (!u) return notFound('user');
  return m[2] && r.method === 'POST' ? bulk(db, u, r.form) : userPage(db, u, r.query);
}
