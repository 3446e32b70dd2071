// A procedural benchmark with several worlds, written against automemo's public API only: office intranets (one a
// world, never mixed) where the same kinds of chores — export a report, share a document, archive a project, book a
// room, approve an expense — are done differently on each site. A chore takes up to three steps: open the function
// (its menu path is the site's, per kind of chore), give a date where the chore has one (each site reads dates in its
// own format, and says so in the error when one is wrong), and close the confirmation (the button is the same for
// every chore of a site). Without memory the agent tries menu paths, date formats and buttons in a fixed order; with
// memory it goes straight to a menu path that worked for the same chore (a line "open: <path> -> ok" whose nearest
// heading above names the chore), writes dates as the site's error said ("expects dates as <format>") and presses a
// button that closed a confirmation on this site ("confirm: <button> -> done"). So some of what a task needs was
// learned from other chores' episodes (the button, the date format) and some from the same chore's (the menu path),
// and a failed try teaches through its error. Reward: the steps needed over the steps taken (0 past seven steps).
import { type AgentRun, defineEnvironment, type EnvTask, type MemoryPayload } from 'automemo';
import { rng } from './random.ts';

const PATHS = {
  export: ['File > Export', 'Tools > Download', 'Reports > Save as PDF', 'More > Export as', 'Print > Save to file'],
  share: ['Share button', 'File > Share', 'People > Invite', 'More > Send link', 'Access > Add member'],
  archive: ['Project settings > Archive', 'More > Move to archive', 'File > Archive', 'Admin > Retire project', 'Status > Close project'],
  book: ['Rooms > Reserve', 'Calendar > New booking', 'Facilities > Book', 'More > Reserve room', 'Spaces > Hold'],
  approve: ['Inbox > Approve', 'Expenses > Review', 'Finance > Sign off', 'More > Approve', 'Claims > Accept'],
} as const;
type Chore = keyof typeof PATHS;
const CHORES = Object.keys(PATHS) as Chore[];
/** Chores that take a date. */
const DATED: readonly Chore[] = ['export', 'book'];
const FORMATS = ['DD/MM/YYYY', 'YYYY-MM-DD', 'MM-DD-YYYY'] as const;
const BUTTONS = ['Confirm', 'Yes, continue', 'OK', 'Proceed', 'Apply'] as const;
const SITES = ['harbor', 'juniper', 'kestrel', 'lumen', 'meridian', 'nimbus', 'onyx', 'pinewood', 'quartz', 'redwood', 'saffron', 'tamarind'];
const MAX_STEPS = 7;

const REPORTS = ['quarterly revenue', 'headcount', 'support backlog', 'travel spend', 'energy usage', 'vendor audit'];
const DOCS = ['budget draft v2', 'onboarding checklist', 'Q3 roadmap', 'safety policy', 'hiring plan', 'press kit'];
const PROJECTS = ['Falcon', 'Lighthouse', 'Orchard', 'Tundra', 'Beacon', 'Mosaic', 'Quarry'];
const ROOMS = ['Aurora', 'Birch', 'Cedar', 'Delta', 'Ember', 'Fjord'];
const PEOPLE = ['Priya Nair', 'Tomas Berg', 'Lena Hoffmann', 'Kwame Mensah', 'Sofia Russo', 'Daniel Cho', 'Amara Obi'];

interface Site {
  path: Record<Chore, string>;
  format: string;
  button: string;
}

interface Truth {
  chore: Chore;
  site: Site;
  date?: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatDate(t: number, format: string): string {
  const d = new Date(t);
  const [y, m, day] = [d.getUTCFullYear(), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())];
  return format === 'DD/MM/YYYY' ? `${day}/${m}/${y}` : format === 'MM-DD-YYYY' ? `${m}-${day}-${y}` : `${y}-${m}-${day}`;
}

function instruction(chore: Chore, site: string, r: ReturnType<typeof rng>, date: number | undefined): string {
  const when = date === undefined ? '' : new Date(date).toISOString().slice(0, 10);
  if (chore === 'export') return `On the ${site} intranet, export the ${r.pick(REPORTS)} report for the week of ${when} as a PDF.`;
  if (chore === 'share') return `On the ${site} intranet, share "${r.pick(DOCS)}" with ${r.pick(PEOPLE)}.`;
  if (chore === 'archive') return `On the ${site} intranet, archive project ${r.pick(PROJECTS)}, it has finished.`;
  if (chore === 'book') return `On the ${site} intranet, book room ${r.pick(ROOMS)} for ${r.pick(PEOPLE)} on ${when}.`;
  return `On the ${site} intranet, approve the expense claim from ${r.pick(PEOPLE)}.`;
}

function tasks(seed: number, perSite: number): EnvTask<Truth>[] {
  const r = rng(seed);
  const out: EnvTask<Truth>[] = [];
  for (const name of SITES) {
    const site: Site = {
      path: Object.fromEntries(CHORES.map((c) => [c, PATHS[c][r.int(PATHS[c].length)] as string])) as Record<Chore, string>,
      format: FORMATS[r.int(FORMATS.length)] as string,
      button: BUTTONS[r.int(BUTTONS.length)] as string,
    };
    for (let i = 0; i < perSite; i++) {
      const chore = r.pick(CHORES);
      const date = DATED.includes(chore) ? Date.UTC(2024, r.int(12), 1 + r.int(28)) : undefined;
      out.push({
        id: `${name}-${i}`,
        world: name,
        scenario: chore,
        instruction: instruction(chore, name, r, date),
        meta: { site: name },
        truth: { chore, site, ...(date !== undefined ? { date } : {}) },
      });
    }
  }
  return out;
}

/** What a payload says for this task: a menu path that worked for the same chore, a date format, a button. */
export function remembered(memory: MemoryPayload, chore: Chore): { path?: string; format?: string; button?: string } {
  const out: { path?: string; format?: string; button?: string } = {};
  let heading = '';
  for (const line of memory.text.split('\n')) {
    const lower = line.toLowerCase();
    const named = CHORES.filter((c) => lower.includes(c));
    if (named.length) heading = named.join(' ');
    const open = /open: (.+?) -> ok/.exec(line);
    if (open && heading.includes(chore) && (PATHS[chore] as readonly string[]).includes(open[1] as string)) out.path ??= open[1];
    const format = /expects dates as (DD\/MM\/YYYY|YYYY-MM-DD|MM-DD-YYYY)/.exec(line);
    if (format) out.format ??= format[1];
    const button = /confirm: (.+?) -> done/.exec(line);
    if (button && (BUTTONS as readonly string[]).includes(button[1] as string)) out.button ??= button[1];
  }
  return out;
}

function firstThen<T>(first: T | undefined, all: readonly T[]): T[] {
  return first === undefined ? [...all] : [first, ...all.filter((x) => x !== first)];
}

/** The agent's run: each step's options tried in order (the remembered one first) until one works or seven steps pass. */
export function runChore(truth: Truth, memory: MemoryPayload): AgentRun {
  const known = remembered(memory, truth.chore);
  const steps: AgentRun['steps'] = [];
  const full = () => steps.length >= MAX_STEPS;
  for (const path of firstThen(known.path, PATHS[truth.chore])) {
    if (full()) return { steps };
    const ok = path === truth.site.path[truth.chore];
    steps.push({ action: `open: ${path}`, result: ok ? 'ok' : 'no such menu item' });
    if (ok) break;
  }
  if (truth.date !== undefined) {
    for (const format of firstThen(known.format, FORMATS)) {
      if (full()) return { steps };
      const ok = format === truth.site.format;
      const step: AgentRun['steps'][number] = { action: `date: ${formatDate(truth.date, format)}`, result: ok ? 'ok' : 'rejected' };
      if (!ok) step.error = `invalid date, this site expects dates as ${truth.site.format}`;
      steps.push(step);
      if (ok) break;
    }
  }
  for (const button of firstThen(known.button, BUTTONS)) {
    if (full()) return { steps };
    const ok = button === truth.site.button;
    steps.push({ action: `confirm: ${button}`, result: ok ? 'done' : 'nothing happened' });
    if (ok) return { answer: 'done', steps };
  }
  return { steps };
}

export default defineEnvironment({
  name: 'intranets',
  summary: 'office chores done differently on each intranet (a bench benchmark with 12 worlds)',
  options: '<tasks per site>',
  load(ctx) {
    const perSite = ctx.arg ? Number(ctx.arg) : 80;
    if (!Number.isInteger(perSite) || perSite < 10 || perSite > 500) throw new Error(`tasks per site must be a whole number from 10 to 500; got "${ctx.arg}"`);
    const all = tasks(7000 + ctx.seed, perSite);
    return {
      tasks: all,
      split: { update: Math.round(all.length * 0.25), validation: Math.round(all.length * 0.25) },
      description:
        'Each task is an office chore on a company intranet (export a report, share a document, archive a project, book a room, approve an ' +
        'expense). Each intranet has its own menu path per chore, reads dates in its own format (its error message says which), and closes ' +
        'confirmations with its own button. The agent acts with steps "open: <menu path>", "date: <date>" and "confirm: <button>", trying ' +
        'options in a fixed order unless its memory shows a menu path that worked for the same chore (under a heading naming the chore), ' +
        'the site\'s date format ("expects dates as ...") or a button that closed a confirmation ("confirm: <button> -> done").',
      reward: 'steps needed / steps taken (0 when not done within seven steps)',
      budget: { maxChars: 700, maxImages: 0 },
      agent: {
        id: 'intranet-agent/1',
        mode: 'offline',
        deterministic: true,
        async run(task: EnvTask<Truth>, memory: MemoryPayload): Promise<AgentRun> {
          return runChore(task.truth as Truth, memory);
        },
      },
      check(task: EnvTask<Truth>, run: AgentRun) {
        const t = task.truth as Truth;
        const needed = t.date === undefined ? 2 : 3;
        const done = run.answer === 'done';
        return { reward: done ? needed / run.steps.length : 0, success: done, metrics: { steps: run.steps.length } };
      },
      explain: (task: EnvTask<Truth>) => {
        const t = task.truth as Truth;
        return {
          gold: [t.site.path[t.chore] as string, t.site.button],
          notes: [`${t.chore} here: open "${t.site.path[t.chore]}"${t.date !== undefined ? `, dates ${t.site.format}` : ''}, confirm with "${t.site.button}"`],
        };
      },
    };
  },
});
