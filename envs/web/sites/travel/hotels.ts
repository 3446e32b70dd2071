// Hotels: search by city (filters folded under "More filters"), a hotel page with its rates, a nights selector, the
// total (shown only after "Update total") and booking. The Standard rate is preselected; the free-cancellation rate
// sits under "More rates".
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { type Hotel, nextRef, stayTotal, type TravelDb, FIRST_DAY } from './db.ts';
import { euros } from './format.ts';

export const STANDARD_LABEL = 'Standard (non-refundable)';
export const FLEXIBLE_LABEL = 'Flexible (free cancellation)';
export const MAX_NIGHTS = 10;

const starsOf = (n: number) => '★'.repeat(n);

export function hotelsInCity(db: TravelDb, city: string): Hotel[] {
  const c = city.trim().toLowerCase();
  return db.hotels.filter((h) => h.city.toLowerCase() === c);
}

export function hotelListPage(db: TravelDb, req: SiteRequest): string {
  const city = req.query.get('city') ?? '';
  const freeCancel = req.query.get('free') === '1';
  const fourStars = req.query.get('stars4') === '1';
  const form = `<form method="get" action="/hotels" class="card">
<label>City <input name="city" value="${esc(city)}" placeholder="Where are you going?"></label>
<button type="submit">Search hotels</button>
<details${freeCancel || fourStars ? ' open' : ''}><summary>More filters</summary>
<label><input type="checkbox" name="free" value="1"${freeCancel ? ' checked' : ''}> Free cancellation</label>
<label><input type="checkbox" name="stars4" value="1"${fourStars ? ' checked' : ''}> 4 stars and up</label>
<button type="submit">Apply filters</button></details></form>`;
  if (!city.trim())
    return `${form}<p class="muted">Cities: ${esc([...new Set(db.hotels.map((h) => h.city))].join(', '))}.</p>`;
  const hotels = hotelsInCity(db, city)
    .filter((h) => (!freeCancel || h.flexNightly > 0) && (!fourStars || h.stars >= 4))
    .sort((a, b) => a.nightly - b.nightly);
  if (!hotels.length) return `${form}<p role="status">No hotels found in "${esc(city)}".</p>`;
  const cards = hotels
    .map(
      (h) =>
        `<div class="card"><a href="/hotels/${h.id}">${esc(h.name)}</a> <span>${starsOf(h.stars)}</span> <span>· ${esc(h.area)} ·</span> <span>from ${euros(h.nightly)} / night</span></div>`,
    )
    .join('');
  return `${form}<h2>${hotels.length} hotels in ${esc(hotels[0]?.city ?? city)}</h2>${cards}`;
}

export function hotelPage(db: TravelDb, hotel: Hotel, req: SiteRequest): string {
  const nights = Math.min(MAX_NIGHTS, Math.max(1, Number.parseInt(req.query.get('nights') ?? '1', 10) || 1));
  const rate = req.query.get('rate') === 'flexible' && hotel.flexNightly ? 'flexible' : 'standard';
  const showTotal = req.query.has('nights');
  const radio = (value: string, label: string, price: number) =>
    `<label><input type="radio" name="rate" value="${value}"${rate === value ? ' checked' : ''}> ${esc(label)}</label> <span>${euros(price)} per night</span>`;
  const more = hotel.flexNightly
    ? `<details${rate === 'flexible' ? ' open' : ''}><summary>More rates</summary><p>${radio('flexible', FLEXIBLE_LABEL, hotel.flexNightly)}</p><p class="muted">Cancel free of charge until 48 hours before check-in.</p></details>`
    : '<p class="muted">No other rates available.</p>';
  const options = Array.from({ length: MAX_NIGHTS }, (_, i) => i + 1)
    .map((n) => `<option value="${n}"${n === nights ? ' selected' : ''}>${n}</option>`)
    .join('');
  const total = showTotal
    ? `<p role="status"><strong>Total for ${nights} night${nights > 1 ? 's' : ''}: ${euros(stayTotal(db, hotel, nights, rate))}</strong> <span class="muted">(includes city tax and service fee)</span></p>`
    : '';
  return `<p>${starsOf(hotel.stars)} · ${esc(hotel.area)}, ${esc(hotel.city)}</p>
<p class="muted">City tax and a service fee are added to the room price at booking.</p>
<form method="post" action="/hotels/${hotel.id}/book" class="card"><h2>Rates</h2>
<p>${radio('standard', STANDARD_LABEL, hotel.nightly)}</p>${more}
<label>Nights <select name="nights">${options}</select></label>
<button type="submit" formmethod="get" formaction="/hotels/${hotel.id}">Update total</button>
${total}
<p><button type="submit">Book now</button></p></form>`;
}

export function bookHotel(db: TravelDb, hotel: Hotel, req: SiteRequest): SiteResponse {
  const nights = Math.min(MAX_NIGHTS, Math.max(1, Number.parseInt(req.form.get('nights') ?? '1', 10) || 1));
  const rate = req.form.get('rate') === 'flexible' && hotel.flexNightly ? 'flexible' : 'standard';
  const ref = nextRef(db);
  db.bookings.push({
    ref,
    kind: 'hotel',
    title: `${hotel.name}, ${hotel.city}`,
    date: FIRST_DAY,
    nights,
    hotelId: hotel.id,
    rate,
    total: stayTotal(db, hotel, nights, rate),
    status: 'confirmed',
  });
  return { redirect: `/bookings/${ref}?new=1` };
}
