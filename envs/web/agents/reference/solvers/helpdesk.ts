// HelpDesk (ServiceNow-like ticketing). The generic procedures know how service desks usually work — search a
// ticket, fill the new-ticket form, filter the list, bulk-act on a requester's tickets, read an article's fields —
// but not HelpDesk's quirks, so where several ways are plausible (which form tab holds the category, how to get at
// the assignee, how to count, which dialog button confirms, which field names the editor) they pick one with the
// task's seeded random, trying last what a failed sibling did.
import type { AxNode } from '../../../browser/observation.ts';
import { find, findAll, valueOf } from '../../../browser/snapshot.ts';
import { chooseWay, type SolveContext, type WebSolver } from '../solver.ts';

type Task =
  | { kind: 'create'; title: string; category: string; priority: string }
  | { kind: 'reassign'; number: string; agent: string }
  | { kind: 'count'; status: string; priority: string }
  | { kind: 'close'; requester: string }
  | { kind: 'editor'; article: string };

function taskOf(instruction: string): Task | undefined {
  let m = instruction.match(/create a ticket titled "([^"]+)" with category (\S+) and priority (\S+?)\.?$/i);
  if (m) return { kind: 'create', title: m[1] as string, category: m[2] as string, priority: m[3] as string };
  m = instruction.match(/reassign ticket (\S+) to "([^"]+)"/i);
  if (m) return { kind: 'reassign', number: m[1] as string, agent: m[2] as string };
  m = instruction.match(/how many tickets have status (\S+) and priority (\S+?)\??$/i);
  if (m) return { kind: 'count', status: m[1] as string, priority: m[2] as string };
  m = instruction.match(/close every ticket requested by "([^"]+)"/i);
  if (m) return { kind: 'close', requester: m[1] as string };
  m = instruction.match(/last edited the knowledge article "([^"]+)"/i);
  if (m) return { kind: 'editor', article: m[1] as string };
  return undefined;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const has = (acts: string[], re: RegExp) => acts.some((a) => re.test(a));
const took = (acts: string[], line: string) => acts.some((a) => norm(a) === norm(line));
const nodes = (ctx: SolveContext) => ctx.page().nodes;

/** One action; a click that timed out (a busy page) is tried once more, as a person would. */
async function act(ctx: SolveContext, line: string, thought: string): Promise<boolean> {
  const r = await ctx.act(line, thought);
  if (!r || r.ok || !/did not respond in time/.test(r.error ?? '')) return !!r?.ok;
  // A checkbox that did get ticked must not be clicked again.
  const box = line.match(/^Click checkbox "([^"]+)"/)?.[1];
  if (box && find(nodes(ctx), 'checkbox', box)?.attrs.checked) return true;
  return !!(await ctx.act(line, `${thought} (again: the page was busy)`))?.ok;
}

/** Cell texts of the table rows on a page (a cell with a link inside reads as the link's name). */
function rowsOf(ns: AxNode[]): string[][] {
  const rows: string[][] = [];
  let row: string[] | undefined;
  let rowDepth = -1;
  for (const n of ns) {
    if (n.role === 'row') {
      row = [];
      rows.push(row);
      rowDepth = n.depth;
    } else if (row && n.depth <= rowDepth) row = undefined;
    else if (row && n.role === 'cell') row.push(n.name || n.text || '');
    else if (row && n.role === 'link' && row.length && !row[row.length - 1]) row[row.length - 1] = n.name;
  }
  return rows.filter((r) => r.length > 0);
}

async function createTicket(ctx: SolveContext, t: Extract<Task, { kind: 'create' }>): Promise<string> {
  await act(ctx, 'Click link "New ticket"', 'open the new-ticket form');
  for (const box of findAll(nodes(ctx), 'checkbox').filter((b) => !b.attrs.checked && /checked|confirm|agree/i.test(b.name))) {
    await act(ctx, `Click checkbox "${box.name}"`, 'tick the required confirmation');
  }
  if (find(nodes(ctx), 'combobox', 'Priority')) await act(ctx, `Select combobox "Priority"; ${t.priority}`, 'set the priority');
  if (find(nodes(ctx), 'combobox', 'Category')) await act(ctx, `Select combobox "Category"; ${t.category}`, 'set the category');
  else {
    // The category is somewhere behind a tab: look in one that could hold it.
    const start = findAll(nodes(ctx), 'tab').find((x) => x.attrs.selected)?.name ?? 'Details';
    const tabs = findAll(nodes(ctx), 'tab').filter((x) => !x.attrs.selected).map((x) => x.name);
    if (tabs.length) {
      const tab = chooseWay(ctx, tabs.map((name) => ({ id: name, weight: 1, tookBy: (a: string[]) => took(a, `Click tab "${name}"`) })));
      await act(ctx, `Click tab "${tab}"`, 'the category may be on this tab');
      if (find(nodes(ctx), 'combobox', 'Category')) await act(ctx, `Select combobox "Category"; ${t.category}`, 'set the category');
      await act(ctx, `Click tab "${start}"`, 'back to the title');
    }
  }
  await act(ctx, `Type textbox "Title"; ${t.title}`, 'type the title (Enter submits)');
  if (find(nodes(ctx), 'button', 'Submit')) await act(ctx, 'Click button "Submit"', 'submit the form');
  return 'done';
}

async function reassign(ctx: SolveContext, t: Extract<Task, { kind: 'reassign' }>): Promise<string> {
  await act(ctx, `Type textbox "Search tickets"; ${t.number}`, 'find the ticket');
  if (find(nodes(ctx), 'link', t.number)) await act(ctx, `Click link "${t.number}"`, 'open it');
  const current = nodes(ctx).find((n, i, all) => n.role === 'link' && all[i - 1]?.role === 'definition' && /assigned to/i.test(all[i - 2]?.text ?? ''));
  const way = chooseWay(ctx, [
    { id: 'edit', weight: 1, tookBy: (a) => has(a, /More actions/i) },
    { id: 'note', weight: 1, tookBy: (a) => has(a, /Work note/i) },
    { id: 'assignee', weight: 1, tookBy: (a) => !has(a, /More actions|Work note/i) },
  ]);
  if (way === 'note') {
    // No assignee control on the page: hand the ticket over with a work note.
    await act(ctx, `Type textbox "Work note"; Reassigned to ${t.agent}`, 'record the handover');
    return 'done';
  }
  if (way === 'assignee' && current) {
    await act(ctx, `Click link "${current.name}"`, 'the assignee link may open a picker');
    const picker = findAll(nodes(ctx), 'combobox').find((c) => /assign/i.test(c.name));
    if (picker) await act(ctx, `Select combobox "${picker.name}"; ${t.agent}`, 'pick the new assignee');
    return 'done';
  }
  await act(ctx, 'Click generic "More actions"', 'look for an edit action');
  await act(ctx, 'Click link "Edit record"', 'open the edit form');
  await act(ctx, `Select combobox "Assigned to"; ${t.agent}`, 'pick the new assignee');
  await act(ctx, 'Click button "Save"', 'save');
  return 'done';
}

async function count(ctx: SolveContext, t: Extract<Task, { kind: 'count' }>): Promise<string | undefined> {
  await act(ctx, 'Click link "Tickets"', 'open the ticket list');
  const way = chooseWay(ctx, [
    { id: 'filter', weight: 1, tookBy: (a) => has(a, /"Apply"/i) },
    { id: 'quick', weight: 1, tookBy: (a) => took(a, `Click link "${t.status}"`) },
    { id: 'search', weight: 1, tookBy: (a) => has(a, /Search tickets/i) },
  ]);
  if (way === 'filter') {
    await act(ctx, 'Click generic "Filter"', 'open the filter panel');
    await act(ctx, `Select combobox "Status"; ${t.status}`, 'status');
    await act(ctx, `Select combobox "Priority"; ${t.priority}`, 'priority');
    await act(ctx, 'Click button "Apply"', 'apply the filter');
    return readCount(nodes(ctx)) ?? String(countRows(nodes(ctx), t));
  }
  if (way === 'quick') await act(ctx, `Click link "${t.status}"`, 'quick status filter, then count the priority by eye');
  else await act(ctx, `Type textbox "Search tickets"; ${t.status} ${t.priority}`, 'search for both values');
  return String(countRows(nodes(ctx), t));
}

const readCount = (ns: AxNode[]) => ns.map((n) => (n.text ?? n.name).match(/^(\d+) tickets? match/)?.[1]).find(Boolean);

function countRows(ns: AxNode[], t: { status: string; priority: string }): number {
  return rowsOf(ns).filter((r) => r.some((c) => norm(c) === norm(t.status)) && r.some((c) => norm(c) === norm(t.priority))).length;
}

async function closeAll(ctx: SolveContext, t: Extract<Task, { kind: 'close' }>): Promise<string> {
  await act(ctx, 'Click link "Users"', 'find the requester');
  await act(ctx, `Click link "${t.requester}"`, 'open the requester');
  await act(ctx, 'Click checkbox "Select all"', 'select every ticket');
  await act(ctx, 'Click button "Close selected"', 'close them');
  if (find(nodes(ctx), 'dialog')) {
    const button = chooseWay(ctx, [
      { id: 'Continue', weight: 1, tookBy: (a) => took(a, 'Click button "Continue"') },
      // "Close" reads like the task's own verb, so it is the likelier pick.
      { id: 'Close', weight: 1.5, tookBy: (a) => took(a, 'Click button "Close"') },
    ]);
    await act(ctx, `Click button "${button}"`, 'confirm');
  }
  return 'done';
}

async function lastEditor(ctx: SolveContext, t: Extract<Task, { kind: 'editor' }>): Promise<string | undefined> {
  await act(ctx, 'Click link "Knowledge"', 'open the knowledge base');
  if (!find(nodes(ctx), 'link', t.article)) await act(ctx, `Type textbox "Search articles"; ${t.article}`, 'search the article');
  await act(ctx, `Click link "${t.article}"`, 'open the article');
  const way = chooseWay(ctx, [
    { id: 'history', weight: 1, tookBy: (a) => has(a, /"History"/i) },
    { id: 'Author', weight: 1, tookBy: (a) => !has(a, /"History"/i) },
    { id: 'Reviewed by', weight: 1, tookBy: (a) => !has(a, /"History"/i) },
  ]);
  if (way !== 'history') return valueOf(nodes(ctx), way);
  await act(ctx, 'Click tab "History"', 'edits are in the history');
  return readEditor(nodes(ctx));
}

/** The "Last edited by" line, else the first editor row of a history table. */
function readEditor(ns: AxNode[]): string | undefined {
  return valueOf(ns, 'Last edited by') ?? rowsOf(ns).find((r) => /^\d+$/.test(r[0] ?? ''))?.[1];
}

export const helpdeskSolver: WebSolver = {
  site: 'helpdesk',

  async generic(ctx) {
    const t = taskOf(ctx.instruction);
    if (!t) return undefined;
    if (t.kind === 'create') return createTicket(ctx, t);
    if (t.kind === 'reassign') return reassign(ctx, t);
    if (t.kind === 'count') return count(ctx, t);
    if (t.kind === 'close') return closeAll(ctx, t);
    return lastEditor(ctx, t);
  },

  async finish(ctx) {
    const t = taskOf(ctx.instruction);
    if (t?.kind === 'count') return readCount(nodes(ctx)) ?? String(countRows(nodes(ctx), t));
    if (t?.kind === 'editor') return readEditor(nodes(ctx));
    return 'done';
  },
};
