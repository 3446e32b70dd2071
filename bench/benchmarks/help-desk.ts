// A help-desk benchmark with worlds, written against automemo's public API only (as a researcher writes theirs):
// each help desk (a world) answers tickets from its customers, and every customer has house conventions nobody wrote
// down — how dates are written (DD.MM.YYYY, MM/DD/YYYY, ISO, "4 March 2024"), weights (kg, lb, g), order
// references (order 4411, #4411, REF-4411, PO 4411), times (14:30 or 2:30 pm) and how a reply opens ("Hello Ada",
// "Dear Ms Okafor", "Hi Ada", "Good day"). A reply breaking one is rejected, and the checker's note says what the
// customer asked for ("Brightwater Ltd asked: please write dates as DD.MM.YYYY") — in the outcome's feedback only:
// the reply itself and its result show nothing of it. Without memory the agent writes the desk's defaults; it
// follows a convention only when its memory states it for this customer (the nearest line at or above the statement
// that names one of the desk's customers names this one), so a memory has to keep each customer's feedback and bring
// it back for that customer's later tickets, among the same kinds of tickets from other customers.
import { type AgentRun, defineEnvironment, type EnvTask, type MemoryPayload } from 'automemo';
import { rng, type Rng } from './random.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Each dimension's styles; the first is the desk's default. */
const STYLES = {
  date: ['YYYY-MM-DD', 'DD.MM.YYYY', 'MM/DD/YYYY', 'D Month YYYY'],
  weight: ['kg', 'lb', 'g'],
  reference: ['order', '#', 'REF-', 'PO'],
  time: ['24h', '12h'],
  greeting: ['Hello', 'Dear', 'Hi', 'Good day'],
} as const;
type Dimension = keyof typeof STYLES;
const DIMENSIONS = Object.keys(STYLES) as Dimension[];

/** What each ticket kind's reply states (every reply also opens with a greeting). */
const KINDS = {
  delivery: ['date', 'weight'],
  invoice: ['reference', 'date'],
  callback: ['time', 'date'],
  return: ['reference', 'weight'],
} as const satisfies Record<string, readonly Dimension[]>;
type Kind = keyof typeof KINDS;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

const DESKS = ['northwind', 'bluepeak', 'copperline', 'driftwood', 'eastgate', 'foxhollow'];
const FIRMS = [
  'Brightwater',
  'Calloway',
  'Dunmore',
  'Everly',
  'Fairhaven',
  'Glenrock',
  'Hartwell',
  'Ironbridge',
  'Juniper',
  'Kingsley',
  'Larkspur',
  'Marlow',
  'Northcote',
  'Oakridge',
  'Pemberton',
  'Quillon',
  'Redfern',
  'Stanmore',
  'Thornbury',
  'Upton',
  'Valemont',
  'Westbrook',
  'Yarrow',
  'Zephyr',
];
const SUFFIXES = ['Ltd', 'GmbH', 'Foods', 'Logistics', 'Clinic', 'Studios', 'Outfitters', 'Labs', 'Bakery', 'Motors'];
const FIRST = [
  'Ada',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Esme',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonah',
  'Keiko',
  'Luis',
  'Mara',
  'Nils',
  'Olu',
  'Petra',
  'Quinn',
  'Rosa',
  'Sami',
  'Tess',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Petrov',
  'Adeyemi',
  'Castillo',
  'Brennan',
  'Nakamura',
  'Fischer',
  'Haddad',
  'Kowalski',
  'Ferreira',
  'Osei',
  'Varga',
  'Duval',
  'Sato',
];
const ITEMS = [
  'replacement pump',
  'office chairs',
  'printer toner',
  'lab gloves',
  'flour sacks',
  'brake pads',
  'camera lens',
  'tent poles',
  'server rack',
  'coffee beans',
];

interface Customer {
  firm: string;
  contact: { first: string; last: string; title: 'Ms' | 'Mr' };
  conventions: Record<Dimension, string>;
}

interface Ticket {
  kind: Kind;
  ticket: number;
  date: number;
  weightKg: number;
  order: number;
  minutes: number;
  item: string;
}

interface Truth {
  desk: string;
  customer: Customer;
  ticket: Ticket;
  /** The desk's customers' firms: what the agent knows of the desk (it reads a line as about the customer it names). */
  firms: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatDate(t: number, style: string): string {
  const d = new Date(t);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  if (style === 'DD.MM.YYYY') return `${pad(day)}.${pad(m)}.${y}`;
  if (style === 'MM/DD/YYYY') return `${pad(m)}/${pad(day)}/${y}`;
  if (style === 'D Month YYYY') return `${day} ${MONTHS[m - 1]} ${y}`;
  return `${y}-${pad(m)}-${pad(day)}`;
}

function formatWeight(kg: number, style: string): string {
  if (style === 'lb') return `${(kg * 2.20462).toFixed(1)} lb`;
  if (style === 'g') return `${Math.round(kg * 1000)} g`;
  return `${kg.toFixed(1)} kg`;
}

function formatReference(order: number, style: string): string {
  if (style === '#') return `#${order}`;
  if (style === 'REF-') return `REF-${order}`;
  if (style === 'PO') return `PO ${order}`;
  return `order ${order}`;
}

function formatTime(minutes: number, style: string): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (style === '12h') return `${h % 12 === 0 ? 12 : h % 12}:${pad(m)} ${h < 12 ? 'am' : 'pm'}`;
  return `${pad(h)}:${pad(m)}`;
}

function formatGreeting(c: Customer, style: string): string {
  if (style === 'Dear') return `Dear ${c.contact.title} ${c.contact.last}`;
  if (style === 'Hi') return `Hi ${c.contact.first}`;
  if (style === 'Good day') return 'Good day';
  return `Hello ${c.contact.first}`;
}

/** How a customer states a convention (the feedback's wording). */
const ASKS: Record<Dimension, (style: string, c: Customer) => string> = {
  date: (s) => `please write dates as ${s}`,
  weight: (s) => `please give weights in ${s === 'lb' ? 'pounds (lb)' : s === 'g' ? 'grams (g)' : 'kilograms (kg)'}`,
  reference: (s) =>
    `please quote order numbers as ${s === '#' ? '#1234' : s === 'REF-' ? 'REF-1234' : s === 'PO' ? 'PO 1234' : 'order 1234'}`,
  time: (s) => `please write times as ${s === '12h' ? '2:30 pm' : '14:30'}`,
  greeting: (s, c) => `please open replies with "${formatGreeting(c, s)}"`,
};
const WRAPPERS = [
  '{firm} replied: {ask}.',
  'Rejected by {firm} — "{ask}".',
  'Customer note from {firm}: {ask}.',
  '{firm} sent it back: {ask}, thank you.',
];

/** The style a payload states for a dimension of this customer, if any (the last statement that applies wins). */
export function statedStyle(memory: MemoryPayload, dim: Dimension, truth: Truth): string | undefined {
  const c = truth.customer;
  let about = '';
  let found: string | undefined;
  for (const line of memory.text.split('\n')) {
    // A line is about the last of the desk's customers it names, or, naming none, about the one named above it.
    let at = -1;
    for (const firm of truth.firms) {
      const i = line.lastIndexOf(firm);
      if (i > at) {
        at = i;
        about = firm;
      }
    }
    if (about !== c.firm) continue;
    const style = styleIn(line, dim, c);
    if (style !== undefined) found = style;
  }
  return found;
}

function styleIn(line: string, dim: Dimension, c: Customer): string | undefined {
  if (dim === 'date') return /dates as (YYYY-MM-DD|DD\.MM\.YYYY|MM\/DD\/YYYY|D Month YYYY)/.exec(line)?.[1];
  if (dim === 'weight') return /weights in [a-z]+ \((kg|lb|g)\)/.exec(line)?.[1];
  if (dim === 'reference') {
    const m = /order numbers as (#1234|REF-1234|PO 1234|order 1234)/.exec(line)?.[1];
    return m === undefined
      ? undefined
      : m === '#1234'
        ? '#'
        : m === 'REF-1234'
          ? 'REF-'
          : m === 'PO 1234'
            ? 'PO'
            : 'order';
  }
  if (dim === 'time') {
    const m = /times as (2:30 pm|14:30)/.exec(line)?.[1];
    return m === undefined ? undefined : m === '2:30 pm' ? '12h' : '24h';
  }
  const m = /open replies with "([^"]+)"/.exec(line)?.[1];
  return m === undefined ? undefined : STYLES.greeting.find((s) => formatGreeting(c, s) === m);
}

function dimensionsOf(kind: Kind): Dimension[] {
  return ['greeting', ...KINDS[kind]];
}

function reply(t: Ticket, c: Customer, style: (d: Dimension) => string): string {
  const g = formatGreeting(c, style('greeting'));
  const date = formatDate(t.date, style('date'));
  if (t.kind === 'delivery')
    return `${g}, your ${t.item} (${formatWeight(t.weightKg, style('weight'))}) will ship on ${date}.`;
  if (t.kind === 'invoice')
    return `${g}, the invoice for ${formatReference(t.order, style('reference'))} was issued on ${date}.`;
  if (t.kind === 'callback')
    return `${g}, we will call you back on ${date} at ${formatTime(t.minutes, style('time'))}.`;
  return `${g}, the return of ${formatReference(t.order, style('reference'))} (${formatWeight(t.weightKg, style('weight'))}) is registered.`;
}

function instruction(t: Ticket, c: Customer, desk: string): string {
  const who = `${c.contact.first} ${c.contact.last} of ${c.firm}`;
  const date = formatDate(t.date, 'YYYY-MM-DD');
  if (t.kind === 'delivery')
    return `Ticket ${t.ticket} (${desk} desk), ${who}: when will the ${t.item} ship? Reply that the ${formatWeight(t.weightKg, 'kg')} parcel ships on ${date}.`;
  if (t.kind === 'invoice')
    return `Ticket ${t.ticket} (${desk} desk), ${who}: asks for the invoice date of order ${t.order}. Reply that it was issued on ${date}.`;
  if (t.kind === 'callback')
    return `Ticket ${t.ticket} (${desk} desk), ${who}: wants a call about the ${t.item}. Reply with the callback on ${date} at ${formatTime(t.minutes, '24h')}.`;
  return `Ticket ${t.ticket} (${desk} desk), ${who}: returns the ${t.item} of order ${t.order}. Confirm the return of the ${formatWeight(t.weightKg, 'kg')} parcel.`;
}

function customers(r: Rng, count: number, used: Set<string>): Customer[] {
  const out: Customer[] = [];
  while (out.length < count) {
    const firm = `${r.pick(FIRMS)} ${r.pick(SUFFIXES)}`;
    const stem = firm.split(' ')[0] as string;
    if ([...used].some((u) => u.startsWith(`${stem} `))) continue;
    used.add(firm);
    const conventions = Object.fromEntries(
      DIMENSIONS.map((d) => {
        const styles = STYLES[d] as readonly string[];
        // A quarter of conventions are the desk's default; the others are spread over the remaining styles.
        return [d, r.next() < 0.25 ? (styles[0] as string) : (styles[1 + r.int(styles.length - 1)] as string)];
      }),
    ) as Record<Dimension, string>;
    out.push({
      firm,
      contact: { first: r.pick(FIRST), last: r.pick(LAST), title: r.next() < 0.5 ? 'Ms' : 'Mr' },
      conventions,
    });
  }
  return out;
}

export function helpDeskTasks(
  seed: number,
  perCustomer: number,
  desks = DESKS.length,
  customersPerDesk = 10,
): EnvTask<Truth>[] {
  const r = rng(seed);
  const out: EnvTask<Truth>[] = [];
  for (const desk of DESKS.slice(0, desks)) {
    const firmsUsed = new Set<string>();
    const list = customers(r, customersPerDesk, firmsUsed);
    const firms = list.map((c) => c.firm);
    // Tickets arrive interleaved across customers, in time order.
    const queue = list.flatMap((c) => Array.from({ length: perCustomer }, () => c));
    let ticketNo = 1000 + r.int(8000);
    for (const c of r.shuffle(queue)) {
      const kind = r.pick(KIND_NAMES);
      const ticket: Ticket = {
        kind,
        ticket: ticketNo++,
        date: Date.UTC(2024, r.int(12), 1 + r.int(28)),
        weightKg: Math.round((0.5 + r.next() * 40) * 10) / 10,
        order: 1000 + r.int(9000),
        minutes: (8 + r.int(10)) * 60 + 15 * r.int(4),
        item: r.pick(ITEMS),
      };
      out.push({
        id: `${desk}-${ticket.ticket}`,
        world: desk,
        scenario: kind,
        instruction: instruction(ticket, c, desk),
        meta: { desk, customer: c.firm },
        truth: { desk, customer: c, ticket, firms },
      });
    }
  }
  return out;
}

/** The reply the agent writes: the customer's convention where the payload states it, the desk's default elsewhere. */
export function agentReply(
  task: EnvTask<Truth>,
  memory: MemoryPayload,
): { text: string; styles: Record<Dimension, string> } {
  const truth = task.truth as Truth;
  const styles = Object.fromEntries(
    DIMENSIONS.map((d) => [d, statedStyle(memory, d, truth) ?? (STYLES[d][0] as string)]),
  ) as Record<Dimension, string>;
  return { text: reply(truth.ticket, truth.customer, (d) => styles[d]), styles };
}

/** The styles a reply is written in, read from its text (what the checker sees). */
export function stylesOf(text: string, c: Customer): Record<Dimension, string> {
  const date = /\d{4}-\d\d-\d\d/.test(text)
    ? 'YYYY-MM-DD'
    : /\d\d\.\d\d\.\d{4}/.test(text)
      ? 'DD.MM.YYYY'
      : /\d\d\/\d\d\/\d{4}/.test(text)
        ? 'MM/DD/YYYY'
        : /\d{1,2} [A-Z][a-z]+ \d{4}/.test(text)
          ? 'D Month YYYY'
          : '';
  const weight = /\d kg\b/.test(text) ? 'kg' : /\d lb\b/.test(text) ? 'lb' : /\d g\b/.test(text) ? 'g' : '';
  const reference = /#\d{4}/.test(text)
    ? '#'
    : /REF-\d{4}/.test(text)
      ? 'REF-'
      : /PO \d{4}/.test(text)
        ? 'PO'
        : /order \d{4}/.test(text)
          ? 'order'
          : '';
  const time = /\d:\d\d (am|pm)\b/.test(text) ? '12h' : /\d\d:\d\d/.test(text) ? '24h' : '';
  const greeting = STYLES.greeting.find((s) => text.startsWith(`${formatGreeting(c, s)},`)) ?? '';
  return { date, weight, reference, time, greeting };
}

export function checkReply(
  truth: Truth,
  styles: Record<Dimension, string>,
): { reward: number; success: boolean; feedback: string; broken: Dimension[] } {
  const needed = dimensionsOf(truth.ticket.kind);
  const broken = needed.filter((d) => styles[d] !== truth.customer.conventions[d]);
  const c = truth.customer;
  const r = rng(truth.ticket.ticket);
  const asks = broken.map((d) =>
    (r.pick(WRAPPERS) as string).replace('{firm}', c.firm).replace('{ask}', ASKS[d](c.conventions[d], c)),
  );
  return {
    reward: (needed.length - broken.length) / needed.length,
    success: broken.length === 0,
    feedback: broken.length ? asks.join(' ') : 'reply accepted',
    broken,
  };
}

export default defineEnvironment({
  name: 'help-desk',
  summary:
    "ticket replies that must follow each customer's conventions, revealed only in feedback (a bench benchmark with worlds)",
  options: '<tickets per customer>',
  load(ctx) {
    const perCustomer = ctx.arg ? Number(ctx.arg) : 20;
    if (!Number.isInteger(perCustomer) || perCustomer < 4 || perCustomer > 100)
      throw new Error(`tickets per customer must be a whole number from 4 to 100; got "${ctx.arg}"`);
    const tasks = helpDeskTasks(3000 + ctx.seed, perCustomer);
    return {
      tasks,
      // Six help desks of ten customers: about seven past tickets per customer to learn from, and enough asked to tell
      // designs apart (validation a fifth, test the rest).
      split: { update: Math.round(tasks.length * 0.375), validation: Math.round(tasks.length * 0.2) },
      description:
        'Each task is a support ticket from a customer of a help desk; the agent writes one reply (a greeting and the dates, weights, ' +
        'order numbers or times the ticket needs). Every customer has its own conventions for these (date format, weight unit, how order ' +
        'numbers are quoted, 12- or 24-hour times, how a reply opens); the desk writes its defaults unless told otherwise. A reply that breaks ' +
        "a convention is rejected and the outcome's note says what the customer asked for. The agent follows a convention when its memory " +
        'states it for this customer (a line naming the customer, or under one that does).',
      reward: "share of the reply's conventions (greeting and two more) that match the customer's",
      budget: { maxChars: 1500, maxImages: 0 },
      agent: {
        id: 'help-desk-agent/1',
        mode: 'offline',
        deterministic: true,
        async run(task: EnvTask<Truth>, memory: MemoryPayload): Promise<AgentRun> {
          const { text } = agentReply(task, memory);
          return { answer: text, steps: [{ action: `reply: ${text}`, result: 'sent to the customer' }] };
        },
      },
      check(task: EnvTask<Truth>, run: AgentRun) {
        const truth = task.truth as Truth;
        const v = checkReply(truth, stylesOf(run.answer ?? '', truth.customer));
        return {
          reward: v.reward,
          success: v.success,
          feedback: v.feedback,
          note: v.broken.length ? `broke ${v.broken.join(', ')}` : 'all conventions kept',
          metrics: { broken: v.broken.length },
        };
      },
      // The customer's ask for each convention this ticket needs, as its feedback words it: what a payload must bring back.
      explain: (task: EnvTask<Truth>) => {
        const t = task.truth as Truth;
        const needed = dimensionsOf(t.ticket.kind);
        return {
          gold: needed.map((d) => ASKS[d](t.customer.conventions[d], t.customer)),
          notes: [`${t.customer.firm} wants ${needed.map((d) => `${d} ${t.customer.conventions[d]}`).join(', ')}`],
        };
      },
    };
  },
});
