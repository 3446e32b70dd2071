// CodeHub (GitHub-like code host). The generic procedures know how code hosts usually work — search a repository,
// open a tab, read a list or a labelled field, fill a form — but not CodeHub's quirks, so where several ways are
// plausible (sort the topic or read its rows, Tags or Releases, where a label goes, which pull request list, which
// count) they pick one with the task's seeded random, trying last what a failed sibling did.
import type { AxNode } from '../../../browser/observation.ts';
import { find, findAll, valueOf } from '../../../browser/snapshot.ts';
import { chooseWay, type SolveContext, type WebSolver } from '../solver.ts';

type Kind = 'top-starred' | 'release' | 'new-issue' | 'pr-author' | 'count-open';

function kindOf(instruction: string): Kind | undefined {
  if (/most stars/i.test(instruction)) return 'top-starred';
  if (/latest release/i.test(instruction)) return 'release';
  if (/open an issue/i.test(instruction)) return 'new-issue';
  if (/pull request/i.test(instruction)) return 'pr-author';
  if (/how many open issues/i.test(instruction)) return 'count-open';
  return undefined;
}

const quoted = (instruction: string) => [...instruction.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
const REPO = /^[\w.-]+\/[\w.-]+$/;
const repoArg = (instruction: string) => quoted(instruction).find((q) => REPO.test(q)) ?? '';
const others = (instruction: string) => quoted(instruction).filter((q) => !REPO.test(q));

const has = (acts: string[], re: RegExp) => acts.some((a) => re.test(a));
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nodes = (ctx: SolveContext) => ctx.page().nodes;

async function openRepo(ctx: SolveContext, full: string): Promise<void> {
  await ctx.act(`Type textbox "Search repositories"; ${full}`, 'find the repository');
  await ctx.act(`Click link "${full}"`, 'open it');
}

/** Repository rows of a list: full name and star count. */
function repoRows(ns: AxNode[]): { full: string; stars: number }[] {
  const rows: { full: string; stars: number }[] = [];
  for (const n of ns) {
    if (n.role === 'link' && REPO.test(n.name)) rows.push({ full: n.name, stars: -1 });
    const m = (n.text ?? n.name).match(/★\s*([\d,]+)/);
    const last = rows[rows.length - 1];
    if (m && last && last.stars < 0) last.stars = Number((m[1] as string).replace(/,/g, ''));
  }
  return rows;
}

const tagNames = (ns: AxNode[], role: string) => ns.filter((n) => n.role === role && /^v\d/.test(n.name || n.text || '')).map((n) => n.name || n.text || '');

function readRelease(ns: AxNode[]): string | undefined {
  return tagNames(ns, 'heading')[0] ?? tagNames(ns, 'cell')[0] ?? valueOf(ns, 'Newest tag');
}

/** "by tobias" after the row link named `title` (list pages), or the Author field (pull request page). */
function readAuthor(ns: AxNode[], title: string): string | undefined {
  const field = valueOf(ns, 'Author');
  if (field) return field;
  const i = ns.findIndex((n) => n.role === 'link' && n.name.toLowerCase() === title.toLowerCase());
  const by = ns.slice(i + 1).find((n) => / by (\S+)$/.test(n.text ?? n.name));
  return i >= 0 ? (by?.text ?? by?.name ?? '').match(/ by (\S+)$/)?.[1] : undefined;
}

const readOpenCount = (ns: AxNode[]) => ns.map((n) => (n.text ?? n.name).match(/^(\d+) open issues?\b/)?.[1]).find(Boolean);

async function topStarred(ctx: SolveContext): Promise<string | undefined> {
  const [topic] = quoted(ctx.instruction);
  const way = chooseWay(ctx, [
    { id: 'first-row', tookBy: (a) => !has(a, /Sort/i) },
    { id: 'max-on-page', tookBy: (a) => !has(a, /Sort/i) },
    { id: 'sort', tookBy: (a) => has(a, /Most stars/i) },
  ]);
  await ctx.act(`Click link "${topic}"`, 'open the topic');
  if (way === 'sort') {
    const menu = find(nodes(ctx), 'generic', /^Sort/);
    await ctx.act(menu ? `Click generic "${menu.name}"` : 'Click generic "Sort"', 'open the sort menu');
    await ctx.act('Click link "Most stars"', 'sort by stars');
  }
  const rows = repoRows(nodes(ctx));
  if (way === 'max-on-page') return [...rows].sort((a, b) => b.stars - a.stars)[0]?.full;
  return rows[0]?.full;
}

/** The release entry published last (its "Published on" date), which may be a pre-release. */
function newestPublished(ns: AxNode[]): string | undefined {
  let best: { tag: string; date: string } | undefined;
  let tag = '';
  for (const n of ns) {
    if (n.role === 'heading' && /^v\d/.test(n.name)) tag = n.name;
    const date = (n.text ?? n.name).match(/Published on (\d{4}-\d{2}-\d{2})/)?.[1];
    if (date && tag && (!best || date > best.date)) best = { tag, date };
  }
  return best?.tag;
}

async function release(ctx: SolveContext): Promise<string | undefined> {
  const way = chooseWay(ctx, [
    { id: 'overview', tookBy: (a) => !has(a, /"(Releases|Tags)"/) },
    { id: 'tags', tookBy: (a) => has(a, /"Tags"/) },
    { id: 'releases-newest', tookBy: (a) => has(a, /"Releases"/) },
    // A sibling that opened Releases and failed may have read the wrong entry: reading the top one stays open.
    { id: 'releases', tookBy: () => false },
  ]);
  await openRepo(ctx, repoArg(ctx.instruction));
  if (way === 'overview') return valueOf(nodes(ctx), 'Newest tag') ?? readRelease(nodes(ctx));
  await ctx.act(way === 'tags' ? 'Click link "Tags"' : 'Click link "Releases"', 'list the versions');
  return way === 'releases-newest' ? newestPublished(nodes(ctx)) : readRelease(nodes(ctx));
}

async function newIssue(ctx: SolveContext): Promise<string | undefined> {
  const [title, label] = others(ctx.instruction);
  // Two decisions: where the label goes when the form has no label field, then whether the picker saves by itself.
  const inDescription = chooseWay(ctx, [
    { id: 'description', tookBy: (a) => has(a, /"Description"/) },
    // Twice as likely: an agent that finds no label field usually looks again once the issue exists. A sibling that
    // failed on the issue page failed at the second decision, not this one.
    { id: 'issue-page', tookBy: () => false },
    { id: 'issue-page', tookBy: () => false },
  ]) === 'description';
  const apply = !inDescription && chooseWay(ctx, [
    { id: 'tick', tookBy: (a) => has(a, /Click checkbox/) && !has(a, /Apply/) },
    { id: 'apply', tookBy: (a) => has(a, /Apply/) },
  ]) === 'apply';
  await openRepo(ctx, repoArg(ctx.instruction));
  await ctx.act('Click link "Issues"', 'go to the issues');
  await ctx.act('Click link "New issue"', 'start a new issue');
  if (inDescription) await ctx.act(`Type textbox "Description"; Label: ${label}`, 'no label field on the form: name the label in the description');
  await ctx.act(`Type textbox "Title"; ${title}`, 'fill the title and submit');
  if (inDescription) return 'done';
  const picker = find(nodes(ctx), 'generic', /^Labels?$/i);
  if (picker) await ctx.act(`Click generic "${picker.name}"`, 'open the label picker');
  await ctx.act(`Click checkbox "${label}"`, 'tick the label');
  if (apply) await ctx.act('Click button "Apply labels"', 'save the labels');
  return 'done';
}

async function prAuthor(ctx: SolveContext): Promise<string | undefined> {
  const [title = ''] = others(ctx.instruction);
  const way = chooseWay(ctx, [
    { id: 'open-list', tookBy: (a) => !has(a, /"Closed"|Filter pull requests/) },
    { id: 'filter', tookBy: (a) => has(a, /Filter pull requests/) },
    { id: 'closed', tookBy: (a) => has(a, /"Closed"/) },
  ]);
  await openRepo(ctx, repoArg(ctx.instruction));
  await ctx.act('Click link "Pull requests"', 'go to the pull requests');
  if (way === 'filter') await ctx.act(`Type textbox "Filter pull requests"; ${title}`, 'filter the list by title');
  if (way === 'closed') await ctx.act('Click link "Closed"', 'include closed pull requests');
  const links = findAll(nodes(ctx), 'link');
  const match = links.find((n) => n.name.toLowerCase() === title.toLowerCase()) ?? links.find((n) => n.name.toLowerCase().includes(title.toLowerCase()));
  if (!match) return undefined;
  await ctx.act(`Click link "${match.name}"`, 'open the pull request');
  return readAuthor(nodes(ctx), match.name);
}

async function countOpen(ctx: SolveContext): Promise<string | undefined> {
  const [label = ''] = others(ctx.instruction);
  const way = chooseWay(ctx, [
    { id: 'badge', tookBy: (a) => !has(a, new RegExp(`"${literal(label)}"|Manage labels`, 'i')) },
    { id: 'filter', tookBy: (a) => has(a, new RegExp(`Click link "${literal(label)}"`, 'i')) },
    { id: 'labels-page', tookBy: (a) => has(a, /Manage labels/) },
  ]);
  await openRepo(ctx, repoArg(ctx.instruction));
  await ctx.act('Click link "Issues"', 'go to the issues');
  const ns = nodes(ctx);
  const at = ns.findIndex((n) => n.role === 'link' && n.name.toLowerCase() === label.toLowerCase());
  if (way === 'badge') return ns.slice(at + 1, at + 3).map((n) => (n.text ?? n.name).match(/^\d+$/)?.[0]).find(Boolean);
  if (way === 'labels-page') {
    await ctx.act('Click link "Manage labels"', 'the labels page lists counts');
    const after = nodes(ctx);
    const row = after.findIndex((n) => n.role === 'link' && n.name.toLowerCase() === label.toLowerCase());
    return after.slice(row + 1).map((n) => (n.text ?? n.name).match(/^(\d+) issues?$/)?.[1]).find(Boolean);
  }
  await ctx.act(`Click link "${label}"`, 'filter the issues by the label');
  return readOpenCount(nodes(ctx));
}

const GENERIC: Record<Kind, (ctx: SolveContext) => Promise<string | undefined>> = {
  'top-starred': topStarred,
  release,
  'new-issue': newIssue,
  'pr-author': prAuthor,
  'count-open': countOpen,
};

export const codeSolver: WebSolver = {
  site: 'code',
  async generic(ctx) {
    const kind = kindOf(ctx.instruction);
    return kind ? GENERIC[kind](ctx) : undefined;
  },
  async finish(ctx) {
    const ns = nodes(ctx);
    switch (kindOf(ctx.instruction)) {
      case 'new-issue':
        return 'done';
      case 'top-starred':
        return repoRows(ns)[0]?.full;
      case 'release':
        return readRelease(ns);
      case 'pr-author':
        return readAuthor(ns, others(ctx.instruction)[0] ?? '');
      case 'count-open':
        return readOpenCount(ns);
      default:
        return undefined;
    }
  },
};
