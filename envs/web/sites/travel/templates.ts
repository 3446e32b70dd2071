// TravelDesk's five task templates. Each instance is drawn from a candidate list built from the database (only the
// cases where the quirk bites), walked in a fixed shuffled order so that instances 0..14 are distinct.
import { seededRandom } from '../../../../engine/random.ts';
import { exactAnswer, numberAnswer, stateCheck } from '../../check.ts';
import type { WebTemplate } from '../../site.ts';
import { ACCEPT_LABEL } from './bookings.ts';
import { addDays, type City, type Flight, FIRST_DAY, routesOf, SCHEDULE_DAYS, stayTotal, type TravelDb } from './db.ts';
import { FLEX_LABEL, PAGE_SIZE, searchFlights, SORTS } from './flights.ts';
import { toDmy } from './format.ts';
import { FLEXIBLE_LABEL } from './hotels.ts';

/**
 * The candidate for an instance: a fixed permutation per template, skipping candidates whose answer (`keyOf`) an
 * earlier candidate already has, so siblings never share arguments or answers.
 */
function nth<T>(candidates: T[], instance: number, templateId: string, keyOf: (c: T) => unknown = (c) => c): T {
  const r = seededRandom('travel-template', templateId);
  const order = candidates.map((c, i) => ({ c, i, key: r() })).sort((a, b) => a.key - b.key || a.i - b.i);
  const seen = new Set<unknown>();
  const distinct = order.filter(({ c }) => !seen.has(keyOf(c)) && seen.add(keyOf(c)));
  if (!distinct.length) throw new Error(`travel/${templateId}: no candidates`);
  return (distinct[instance % distinct.length] as { c: T }).c;
}

interface Trip {
  from: City;
  to: City;
  date: string;
  /** The requested date's own flights. */
  day: Flight[];
}

/** Every route and date with three schedule days on either side (so flexible dates always mixes in six flights). */
function trips(db: TravelDb): Trip[] {
  const byDay = new Map<string, Flight[]>();
  for (const f of db.flights) {
    const key = `${f.from}/${f.to}/${f.date}`;
    byDay.set(key, [...(byDay.get(key) ?? []), f]);
  }
  const out: Trip[] = [];
  for (const [from, to] of routesOf()) {
    for (let d = 3; d < SCHEDULE_DAYS - 3; d++) {
      const date = addDays(FIRST_DAY, d);
      out.push({ from, to, date, day: byDay.get(`${from.code}/${to.code}/${date}`) ?? [] });
    }
  }
  return out;
}

const searchLines = (t: Trip) => [`Type textbox "From"; ${t.from.name}`, `Type textbox "To"; ${t.to.name}`, `Type textbox "Departure date"; ${toDmy(t.date)}`];

const cheapestFlight: WebTemplate<TravelDb> = {
  id: 'cheapest-flight',
  quirk: `"${FLEX_LABEL}" is on by default and mixes cheaper flights from nearby days into the results: untick it before reading the cheapest fare.`,
  generate(_random, instance, db) {
    const candidates = trips(db).filter((t) => {
      const prices = t.day.map((f) => f.price).sort((a, b) => a - b);
      const mixed = searchFlights(db, t.from.code, t.to.code, t.date, true, 'price')[0];
      // The trap must bite (a nearby day is cheaper) and the day's cheapest fare must be unique.
      return prices.length > 1 && prices[0] !== prices[1] && mixed !== undefined && mixed.price < (prices[0] as number);
    });
    const cheapest = (t: Trip) => Math.min(...t.day.map((f) => f.price));
    const t = nth(candidates, instance, this.id, cheapest);
    const price = cheapest(t);
    return {
      instruction: `On TravelDesk, find the cheapest one-way flight from ${t.from.name} to ${t.to.name} on ${toDmy(t.date)} and give its price.`,
      start: '/',
      check: ({ answer }) => numberAnswer(price, answer),
      oracle: [...searchLines(t), `Click checkbox "${FLEX_LABEL}"`, 'Click button "Search flights"', `ANSWER; ${price}`],
      expected: `answer ${price} (euros; the cheapest fare on ${toDmy(t.date)} itself)`,
    };
  },
};

const earliestFlight: WebTemplate<TravelDb> = {
  id: 'earliest-flight',
  quirk: 'Results come six to a page sorted by price; the departure-time sort is folded under "Sort & filters".',
  generate(_random, instance, db) {
    const candidates = trips(db).filter((t) => {
      const first = [...t.day].sort((a, b) => a.dep.localeCompare(b.dep))[0];
      const pageOne = searchFlights(db, t.from.code, t.to.code, t.date, true, 'price').slice(0, PAGE_SIZE);
      // The earliest departure must not be on the first page of the default order.
      return first !== undefined && !pageOne.includes(first);
    });
    const t = nth(candidates, instance, this.id);
    const first = [...t.day].sort((a, b) => a.dep.localeCompare(b.dep))[0] as Flight;
    return {
      instruction: `On TravelDesk, what is the flight number of the earliest departure from ${t.from.name} to ${t.to.name} on ${toDmy(t.date)}?`,
      start: '/',
      check: ({ answer }) => exactAnswer(first.no, answer, [first.no.replace(/^([A-Z]+)/, '$1 ')]),
      oracle: [...searchLines(t), 'Click generic "Sort & filters"', `Select combobox "Sort by"; ${SORTS.departure}`, 'Click button "Apply"', `ANSWER; ${first.no}`],
      expected: `answer ${first.no} (departs ${first.dep})`,
    };
  },
};

const hotelLines = (name: string, city: string, nights: number) => ['Click link "Hotels"', `Type textbox "City"; ${city}`, `Click link "${name}"`, `Select combobox "Nights"; ${nights}`];

const bookFlexible: WebTemplate<TravelDb> = {
  id: 'book-flexible',
  quirk: `The hotel page preselects the non-refundable Standard rate; "${FLEXIBLE_LABEL}" is hidden under "More rates".`,
  generate(random, instance, db) {
    const hotel = nth(
      db.hotels.filter((h) => h.flexNightly > 0),
      instance,
      this.id,
    );
    const nights = 2 + Math.floor(random() * 6);
    const at = db.bookings.length;
    return {
      instruction: `On TravelDesk, book a stay of ${nights} nights at ${hotel.name} in ${hotel.city}, and make sure it has free cancellation.`,
      start: '/',
      check: ({ before, after }) => {
        const b = after.bookings[at];
        return stateCheck(
          before,
          after,
          [
            { what: `a new booking at ${hotel.name}`, holds: b?.hotelId === hotel.id && b.status === 'confirmed' },
            { what: `${nights} nights`, holds: b?.nights === nights },
            { what: 'the free-cancellation rate', holds: b?.rate === 'flexible' },
          ],
          [`bookings.${at}`],
        );
      },
      oracle: [...hotelLines(hotel.name, hotel.city, nights), 'Click generic "More rates"', `Click radio "${FLEXIBLE_LABEL}"`, 'Click button "Book now"', 'ANSWER; done'],
      expected: `a new booking: ${hotel.name}, ${nights} nights, Flexible (free cancellation) rate`,
    };
  },
};

const stayTotalTemplate: WebTemplate<TravelDb> = {
  id: 'stay-total',
  quirk: 'The page shows only the per-night rate; the total (with city tax and service fee) appears after choosing the nights and pressing "Update total".',
  generate(random, instance, db) {
    const hotel = nth(db.hotels, instance, this.id);
    const nights = 2 + Math.floor(random() * 6);
    const total = stayTotal(db, hotel, nights, 'standard');
    return {
      instruction: `On TravelDesk, what is the total price of a stay of ${nights} nights at ${hotel.name} in ${hotel.city}?`,
      start: '/',
      check: ({ answer }) => numberAnswer(total, answer),
      oracle: [...hotelLines(hotel.name, hotel.city, nights), 'Click button "Update total"', `ANSWER; ${total.toFixed(2)}`],
      expected: `answer ${total.toFixed(2)} (not ${nights} × ${hotel.nightly} = ${nights * hotel.nightly})`,
    };
  },
};

const cancelBookingTemplate: WebTemplate<TravelDb> = {
  id: 'cancel-booking',
  quirk: `"Cancel booking" only opens a confirmation page: tick "${ACCEPT_LABEL}" and press "Confirm cancellation".`,
  generate(_random, instance, db) {
    const open = db.bookings.map((b, i) => ({ b, i })).filter(({ b }) => b.status === 'confirmed');
    const { b, i } = nth(open, instance, this.id);
    return {
      instruction: `On TravelDesk, cancel your booking ${b.ref} and leave the other bookings as they are.`,
      start: '/',
      check: ({ before, after }) => stateCheck(before, after, [{ what: `${b.ref} cancelled`, holds: after.bookings[i]?.status === 'cancelled' }], [`bookings.${i}.status`]),
      oracle: ['Click link "My bookings"', `Click link "Manage ${b.ref}"`, 'Click button "Cancel booking"', `Click checkbox "${ACCEPT_LABEL}"`, 'Click button "Confirm cancellation"', 'ANSWER; done'],
      expected: `booking ${b.ref} (${b.title}) cancelled, the others untouched`,
    };
  },
};

export const TEMPLATES: WebTemplate<TravelDb>[] = [cheapestFlight, earliestFlight, bookFlexible, stayTotalTemplate, cancelBookingTemplate];
