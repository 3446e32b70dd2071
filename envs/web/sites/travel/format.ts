// Dates and money as TravelDesk shows them. The database keeps ISO dates; forms take DD/MM/YYYY; result rows show
// a short day label ("Fri 14 Mar").
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2025-03-14" → "14/03/2025" */
export function toDmy(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

/** "14/03/2025" (or "2025-03-14") → "2025-03-14"; undefined when it is neither. */
export function fromDmy(text: string): string | undefined {
  const t = text.trim();
  const dmy = t.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/);
  const iso = dmy ? `${dmy[3]}-${(dmy[2] as string).padStart(2, '0')}-${(dmy[1] as string).padStart(2, '0')}` : t;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  // A real calendar day only ("31/02/2025" is not one).
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** "2025-03-14" → "Fri 14 Mar" */
export function dayLabel(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** €84 or €361.50 */
export function euros(n: number): string {
  return Number.isInteger(n) ? `€${n}` : `€${n.toFixed(2)}`;
}

export function duration(minutes: number): string {
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function stopsLabel(stops: number): string {
  return stops === 0 ? 'Direct' : stops === 1 ? '1 stop' : `${stops} stops`;
}
