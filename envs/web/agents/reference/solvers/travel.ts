// TravelDesk (travel): the cheapest flight on a date, the earliest departure's flight number, booking a hotel stay
// with free cancellation, a stay's total price, cancelling a booking. The generic procedure knows booking sites
// (search form, results table, sort control, rate choice, a confirmation step) but not this site's quirks, so where
// several routes are plausible it picks one, seeded by the task, keeping the routes failed siblings took for last.
import type { AxNode } from '../../../browser/observation.ts';
import { find, findAll } from '../../../browser/snapshot.ts';
import { byPattern, chooseWay, type PatternTask, type SolveContext, type WebSolver } from '../solver.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A results-table row as header → cell text. */
type Row = Record<string, string>;

function rowsOf(nodes: AxNode[]): Row[] {
  const headers = findAll(nodes, 'columnheader').map((n) => n.name);
  const out: Row[] = [];
  nodes.forEach((n, i) => {
    if (n.role !== 'row') return;
    const cells: string[] = [];
    for (const m of nodes.slice(i + 1)) {
      if (m.depth <= n.depth) break;
      if (m.role === 'cell' && m.depth === n.depth + 1) cells.push(m.name || m.text || '');
    }
    if (cells.length) out.push(Object.fromEntries(cells.map((c, k) => [headers[k] ?? String(k), c])));
  });
  return out;
}

const numberIn = (s: string | undefined) => {
  const m = s?.replace(/,/g, '').match(/\d+(?:\.\d+)?/);
  return m ? Number(m[0]) : undefined;
};

/** "14/03/2025" → "14 Mar", how result rows name the day. */
function dayOf(dmy: string): string {
  const [d, m] = dmy.split('/').map(Number) as [number, number];
  return `${d} ${MONTHS[m - 1]}`;
}

const has = (re: RegExp) => (acts: string[]) => acts.some((a) => re.test(a));
const nodes = (ctx: SolveContext) => ctx.page().nodes;

/** Acts on the first element of a role whose name fits, under its own name; false when there is none. */
async function actOn(ctx: SolveContext, verb: 'Click' | 'Type' | 'Select', role: string, name: RegExp, arg?: string, thought?: string): Promise<boolean> {
  const el = find(nodes(ctx), role, name);
  if (!el) return false;
  return !!(await ctx.act(`${verb} ${role} ${JSON.stringify(el.name)}${arg === undefined ? '' : `; ${arg}`}`, thought));
}

/** Picks the option of a select whose label fits (options are listed in the snapshot). */
async function choose(ctx: SolveContext, select: RegExp, option: RegExp, thought: string): Promise<void> {
  const label = findAll(nodes(ctx), 'option').find((o) => option.test(o.name))?.name;
  if (label) await actOn(ctx, 'Select', 'combobox', select, label, thought);
}

async function searchFlights(ctx: SolveContext, from: string, to: string, date: string): Promise<void> {
  await actOn(ctx, 'Type', 'textbox', /^(from|origin)/i, from, 'fill the origin');
  await actOn(ctx, 'Type', 'textbox', /^(to|destination)/i, to, 'fill the destination');
  await actOn(ctx, 'Type', 'textbox', /date|depart/i, date, 'fill the date as the instruction writes it');
}

/** Fills a search field the replay left empty or different (a step that failed), keeping the other choices. */
async function completeSearch(ctx: SolveContext, from: string, to: string, date: string): Promise<void> {
  const fields: [RegExp, string][] = [
    [/^(from|origin)/i, from],
    [/^(to|destination)/i, to],
    [/date|depart/i, date],
  ];
  for (const [name, want] of fields) {
    const ns = nodes(ctx);
    const at = ns.findIndex((n) => n.role === 'textbox' && name.test(n.name));
    if (at >= 0 && (fieldValue(ns, at) ?? '').trim().toLowerCase() !== want.toLowerCase()) await actOn(ctx, 'Type', 'textbox', name, want, 'complete the search');
  }
}

/** A textbox's value: its inline text, or the text line nested under it. */
function fieldValue(ns: AxNode[], at: number): string | undefined {
  const box = ns[at] as AxNode;
  if (box.text) return box.text;
  for (const n of ns.slice(at + 1)) {
    if (n.depth <= box.depth) break;
    if (n.role === 'text' && n.text) return n.text;
  }
  return undefined;
}

async function sortFlights(ctx: SolveContext, option: RegExp): Promise<void> {
  await actOn(ctx, 'Click', 'generic', /sort/i, undefined, 'open the sort controls');
  await choose(ctx, /sort/i, option, 'sort the results');
  await actOn(ctx, 'Click', 'button', /^apply/i, undefined, 'apply the sort');
}

const price = (r: Row) => numberIn(r.Price) ?? Infinity;
const onDay = (rows: Row[], dmy: string) => {
  const day = rows.filter((r) => (r.Date ?? '').includes(dayOf(dmy)));
  return day.length ? day : rows;
};
const cheapest = (rows: Row[]) => [...rows].sort((a, b) => price(a) - price(b))[0];
const earliest = (rows: Row[]) => [...rows].sort((a, b) => (a.Departs ?? '').localeCompare(b.Departs ?? ''))[0];

async function cheapestFlight(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, from, to, date] = m as unknown as [string, string, string, string];
  await searchFlights(ctx, from, to, date);
  // Sorting by price changes nothing about which fares are listed.
  const sortByPrice = ctx.random() < 0.3;
  const way = chooseWay(ctx, [
    { id: 'exact-date', weight: 0.35, tookBy: has(/checkbox "Flexible/i) },
    { id: 'as-shown', weight: 0.65, tookBy: (acts) => !has(/checkbox "Flexible/i)(acts) },
  ]);
  if (way === 'as-shown' && sortByPrice) await sortFlights(ctx, /price/i);
  if (way === 'exact-date') {
    if (find(nodes(ctx), 'checkbox', /flexible/i)?.attrs.checked) await actOn(ctx, 'Click', 'checkbox', /flexible/i, undefined, 'only the date asked for');
    await actOn(ctx, 'Click', 'button', /^search/i, undefined, 'search again');
  }
  const best = cheapest(rowsOf(nodes(ctx)));
  return best ? String(price(best)) : undefined;
}

async function earliestFlight(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, from, to, date] = m as unknown as [string, string, string, string];
  await searchFlights(ctx, from, to, date);
  const way = chooseWay(ctx, [
    { id: 'sort', weight: 0.4, tookBy: has(/Sort by/i) },
    { id: 'read', weight: 0.6, tookBy: (acts) => !has(/Sort by/i)(acts) },
  ]);
  if (way === 'sort') await sortFlights(ctx, /depart|earliest/i);
  return earliest(onDay(rowsOf(nodes(ctx)), date))?.Flight;
}

async function openHotel(ctx: SolveContext, hotel: string, city: string, filterFree = false): Promise<void> {
  await ctx.act('Click link "Hotels"', 'hotel search');
  await actOn(ctx, 'Type', 'textbox', /city|where|destination/i, city, 'search the city');
  if (filterFree) {
    await actOn(ctx, 'Click', 'generic', /filter/i, undefined, 'open the filters');
    await actOn(ctx, 'Click', 'checkbox', /free cancellation/i, undefined, 'only free cancellation');
    await actOn(ctx, 'Click', 'button', /^apply/i, undefined, 'apply the filters');
  }
  await ctx.act(`Click link "${hotel}"`, 'open the hotel');
}

async function bookStay(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, nights, hotel, city] = m as unknown as [string, string, string, string];
  // The list's "Free cancellation" filter narrows the hotels; it does not pick the rate.
  const filterList = ctx.random() < 0.5;
  const way = chooseWay(ctx, [
    { id: 'rates', weight: 0.35, tookBy: has(/More rates/i) },
    { id: 'as-offered', weight: 0.65, tookBy: (acts) => !has(/More rates/i)(acts) },
  ]);
  await openHotel(ctx, hotel, city, filterList);
  await actOn(ctx, 'Select', 'combobox', /nights/i, nights, 'the length of the stay');
  if (way === 'rates') {
    await actOn(ctx, 'Click', 'generic', /more rates/i, undefined, 'look at the other rates');
    await actOn(ctx, 'Click', 'radio', /free cancellation/i, undefined, 'the rate with free cancellation');
  }
  await actOn(ctx, 'Click', 'button', /^book/i, undefined, 'book it');
  return 'done';
}

/** "Total for 4 nights: €431.50" on the page. */
function totalOn(ns: AxNode[]): number | undefined {
  for (const n of ns) {
    const hit = `${n.name} ${n.text ?? ''}`.match(/Total for \d+ nights?:\s*€\s*([\d.,]+)/i);
    if (hit) return numberIn(hit[1]);
  }
  return undefined;
}

/** The preselected rate's "€84 per night". */
function nightlyOn(ns: AxNode[]): number | undefined {
  for (const n of ns) {
    const hit = `${n.name} ${n.text ?? ''}`.match(/€\s*([\d.,]+)\s*(?:per|\/)\s*night/i);
    if (hit) return numberIn(hit[1]);
  }
  return undefined;
}

async function stayTotal(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, nights, hotel, city] = m as unknown as [string, string, string, string];
  await openHotel(ctx, hotel, city);
  const way = chooseWay(ctx, [
    { id: 'per-night', weight: 0.65, tookBy: (acts) => !has(/Update total/i)(acts) },
    { id: 'update', weight: 0.35, tookBy: has(/Update total/i) },
  ]);
  // Choosing the nights alone shows no total: the per-night price is multiplied out then.
  if (way === 'update' || ctx.random() < 0.4) await actOn(ctx, 'Select', 'combobox', /nights/i, nights, 'the length of the stay');
  if (way === 'update') await actOn(ctx, 'Click', 'button', /update|total|price/i, undefined, 'show the total');
  return answerTotal(ctx, Number(nights));
}

function answerTotal(ctx: SolveContext, nights: number): string | undefined {
  const total = totalOn(nodes(ctx));
  if (total !== undefined) return total.toFixed(2);
  const nightly = nightlyOn(nodes(ctx));
  return nightly === undefined ? undefined : (nightly * nights).toFixed(2);
}

async function cancel(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const ref = m[1] as string;
  await ctx.act('Click link "My bookings"', 'the bookings list');
  await ctx.act(`Click link "Manage ${ref}"`, 'open the booking');
  await actOn(ctx, 'Click', 'button', /^cancel/i, undefined, 'cancel it');
  const way = chooseWay(ctx, [
    { id: 'accept', weight: 0.4, tookBy: has(/checkbox/i) },
    { id: 'as-asked', weight: 0.6, tookBy: (acts) => !has(/checkbox/i)(acts) },
  ]);
  if (way === 'accept') await actOn(ctx, 'Click', 'checkbox', /accept|agree|terms/i, undefined, 'accept the terms');
  // Without the terms ticked, "Confirm" only brings the page back with a note; the booking was taken as cancelled.
  if (way === 'accept' || ctx.random() < 0.5) await actOn(ctx, 'Click', 'button', /confirm/i, undefined, 'confirm');
  return 'done';
}

const TASKS: PatternTask[] = [
  [/cheapest .*flight from (\S+) to (\S+) on (\d{2}\/\d{2}\/\d{4})/i, cheapestFlight],
  [/earliest departure from (\S+) to (\S+) on (\d{2}\/\d{2}\/\d{4})/i, earliestFlight],
  [/book a stay of (\d+) nights at (.+?) in (\S+?),/i, bookStay],
  [/total price of a stay of (\d+) nights at (.+?) in (\S+?)\?/i, stayTotal],
  [/cancel your booking (\S+)/i, cancel],
];

export const travelSolver: WebSolver = {
  site: 'travel',

  generic: byPattern(TASKS),

  async finish(ctx) {
    const flight = ctx.instruction.match(/from (\S+) to (\S+) on (\d{2}\/\d{2}\/\d{4})/);
    if (flight) await completeSearch(ctx, flight[1] as string, flight[2] as string, flight[3] as string);
    const date = flight?.[3];
    const rows = date ? onDay(rowsOf(nodes(ctx)), date) : [];
    if (/cheapest .*flight/i.test(ctx.instruction)) {
      const best = cheapest(rows);
      return best ? String(price(best)) : undefined;
    }
    if (/earliest departure/i.test(ctx.instruction)) return earliest(rows)?.Flight;
    const stay = ctx.instruction.match(/total price of a stay of (\d+) nights/i);
    if (stay) return answerTotal(ctx, Number(stay[1]));
    return 'done';
  },
};
