// Flight search: one GET form (From, To, Departure date, the "Flexible dates (±3 days)" toggle that is on by default,
// and a Sort select folded under "Sort & filters"), results six to a page. With flexible dates on, the cheapest
// flight of each of the three days before and after the requested date is mixed into the results.
import { esc } from '../../html.ts';
import type { SiteRequest } from '../../site.ts';
import { addDays, type City, type Flight, type TravelDb } from './db.ts';
import { dayLabel, duration, euros, fromDmy, stopsLabel, toDmy } from './format.ts';

export const PAGE_SIZE = 6;
export const FLEX_LABEL = 'Flexible dates (±3 days)';
// Labels without colons: the snapshot quotes a line with ": " in it, and such option lines do not parse as options.
export const SORTS = {
  price: 'Lowest price first',
  departure: 'Earliest departure first',
  duration: 'Shortest duration first',
} as const;
export type SortKey = keyof typeof SORTS;

export interface FlightQuery {
  from: string;
  to: string;
  /** As typed. */
  date: string;
  flex: boolean;
  sort: SortKey;
  page: number;
}

export function queryOf(q: URLSearchParams): FlightQuery {
  const flexValues = q.getAll('flex');
  const sort = q.get('sort') ?? 'price';
  return {
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    date: q.get('date') ?? '',
    // The hidden "0" always comes along; the checkbox adds "1". No value at all means a fresh form: on.
    flex: flexValues.length === 0 || flexValues.includes('1'),
    sort: sort in SORTS ? (sort as SortKey) : 'price',
    page: Math.max(1, Number.parseInt(q.get('page') ?? '1', 10) || 1),
  };
}

export function cityOf(db: TravelDb, text: string, list: 'origins' | 'destinations'): City | undefined {
  const t = text.trim().toLowerCase();
  return t ? db[list].find((c) => c.name.toLowerCase() === t || c.code.toLowerCase() === t) : undefined;
}

const byPrice = (a: Flight, b: Flight) => a.price - b.price || a.dep.localeCompare(b.dep);
const byDeparture = (a: Flight, b: Flight) => a.date.localeCompare(b.date) || a.dep.localeCompare(b.dep);
const byDuration = (a: Flight, b: Flight) => a.minutes - b.minutes || a.price - b.price;

/** Every result row of a search, in display order (all pages). */
export function searchFlights(
  db: TravelDb,
  from: string,
  to: string,
  date: string,
  flex: boolean,
  sort: SortKey,
): Flight[] {
  const onRoute = db.flights.filter((f) => f.from === from && f.to === to);
  const rows = onRoute.filter((f) => f.date === date);
  if (flex) {
    for (const offset of [-3, -2, -1, 1, 2, 3]) {
      const day = addDays(date, offset);
      const cheapest = onRoute.filter((f) => f.date === day).sort(byPrice)[0];
      if (cheapest) rows.push(cheapest);
    }
  }
  return rows.sort(sort === 'price' ? byPrice : sort === 'departure' ? byDeparture : byDuration);
}

function searchForm(q: FlightQuery): string {
  const opt = (k: SortKey) => `<option value="${k}"${q.sort === k ? ' selected' : ''}>${esc(SORTS[k])}</option>`;
  return `<form method="get" action="/flights" class="card">
<label>From <input name="from" value="${esc(q.from)}" placeholder="City or airport"></label>
<label>To <input name="to" value="${esc(q.to)}" placeholder="City or airport"></label>
<label>Departure date <input name="date" value="${esc(q.date)}" placeholder="DD/MM/YYYY" size="11"></label>
<input type="hidden" name="flex" value="0"><label><input type="checkbox" name="flex" value="1"${q.flex ? ' checked' : ''}> ${esc(FLEX_LABEL)}</label>
<button type="submit">Search flights</button>
<details><summary>Sort &amp; filters</summary><label>Sort by <select name="sort">${(Object.keys(SORTS) as SortKey[]).map(opt).join('')}</select></label>
<button type="submit">Apply</button></details>
</form>`;
}

function resultsTable(rows: Flight[], q: FlightQuery, names: Record<string, string>): string {
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const pageNo = Math.min(q.page, pages);
  const shown = rows.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE);
  const link = (p: number, label: string) => {
    const params = new URLSearchParams({
      from: q.from,
      to: q.to,
      date: q.date,
      flex: q.flex ? '1' : '0',
      sort: q.sort,
      page: String(p),
    });
    return `<a href="/flights?${esc(params.toString())}">${label}</a>`;
  };
  const body = shown
    .map(
      (f) =>
        `<tr><td>${esc(f.no)}</td><td>${esc(dayLabel(f.date))}</td><td>${f.dep}</td><td>${f.arr}</td><td>${stopsLabel(f.stops)}</td><td>${duration(f.minutes)}</td><td>${euros(f.price)}</td></tr>`,
    )
    .join('');
  const nav = [
    pageNo > 1 ? link(pageNo - 1, 'Previous page') : '',
    `<span>Page ${pageNo} of ${pages}</span>`,
    pageNo < pages ? link(pageNo + 1, 'Next page') : '',
  ];
  return `<h2>${rows.length} flights · ${esc(names[rows[0]?.from ?? ''] ?? '')} → ${esc(names[rows[0]?.to ?? ''] ?? '')}</h2>
<p class="muted">One-way fares per adult, taxes included. Sorted by ${esc(SORTS[q.sort].toLowerCase())}.</p>
<table><thead><tr><th>Flight</th><th>Date</th><th>Departs</th><th>Arrives</th><th>Stops</th><th>Duration</th><th>Price</th></tr></thead><tbody>${body}</tbody></table>
<p style="display:flex;gap:14px">${nav.filter(Boolean).join('')}</p>`;
}

/** The flight search page: the home page and /flights. */
export function flightsPage(db: TravelDb, req: SiteRequest): string {
  const q = queryOf(req.query);
  const form = searchForm(q);
  const touched = req.path === '/flights';
  if (!touched) return form;
  const from = cityOf(db, q.from, 'origins');
  const to = cityOf(db, q.to, 'destinations');
  const iso = fromDmy(q.date);
  let note = '';
  if (!q.from || !q.to || !q.date) note = 'Enter origin, destination and departure date.';
  else if (!from) note = `No departures from "${q.from}". We fly from ${db.origins.map((c) => c.name).join(', ')}.`;
  else if (!to) note = `No arrivals at "${q.to}". We fly to ${db.destinations.map((c) => c.name).join(', ')}.`;
  else if (!iso) note = 'Enter the date as DD/MM/YYYY.';
  if (note || !from || !to || !iso) return `${form}<p role="status">${esc(note)}</p>`;
  const rows = searchFlights(db, from.code, to.code, iso, q.flex, q.sort);
  if (!rows.length)
    return `${form}<p role="status">No flights from ${esc(from.name)} to ${esc(to.name)} on ${esc(toDmy(iso))}.</p>`;
  const names = Object.fromEntries([...db.origins, ...db.destinations].map((c) => [c.code, c.name]));
  return form + resultsTable(rows, q, names);
}
