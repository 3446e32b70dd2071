// TravelDesk's seeded database: a two-week flight schedule on ten one-way routes, hotels in ten cities and the
// traveller's bookings. Origins and destinations are disjoint city sets, so no two instructions swap a city between
// the "from" and "to" slots (the word alignment of sibling instructions stays one-to-one).
import { seededRandom } from '../../../../engine/random.ts';

export interface City {
  name: string;
  code: string;
}

export interface Flight {
  id: number;
  /** Flight number, e.g. "AE418". */
  no: string;
  from: string;
  to: string;
  /** ISO date, e.g. "2025-03-14". */
  date: string;
  /** "06:40" (24-hour). */
  dep: string;
  arr: string;
  minutes: number;
  stops: number;
  /** Whole euros. */
  price: number;
}

export interface Hotel {
  id: number;
  /** Always two words ("Hotel Aurora"), so sibling instructions align word for word. */
  name: string;
  city: string;
  stars: number;
  area: string;
  /** Per night, Standard (non-refundable) rate. */
  nightly: number;
  /** Per night, Flexible (free cancellation) rate; 0 when the hotel has none. */
  flexNightly: number;
  serviceFee: number;
}

export interface Booking {
  /** "TD4821" */
  ref: string;
  kind: 'flight' | 'hotel';
  /** "Hotel Aurora, Porto" or "AE418 Lisbon → Berlin". */
  title: string;
  /** ISO date of departure or check-in. */
  date: string;
  nights: number;
  hotelId: number;
  rate: 'standard' | 'flexible' | '';
  total: number;
  status: 'confirmed' | 'cancelled';
}

export interface TravelDb extends Record<string, unknown> {
  origins: City[];
  destinations: City[];
  flights: Flight[];
  hotels: Hotel[];
  /** City tax per person and night, by hotel city. */
  cityTax: Record<string, number>;
  bookings: Booking[];
}

export const ORIGINS: City[] = [
  { name: 'Lisbon', code: 'LIS' },
  { name: 'Madrid', code: 'MAD' },
  { name: 'Paris', code: 'CDG' },
  { name: 'Dublin', code: 'DUB' },
  { name: 'Amsterdam', code: 'AMS' },
];
export const DESTINATIONS: City[] = [
  { name: 'Berlin', code: 'BER' },
  { name: 'Rome', code: 'FCO' },
  { name: 'Vienna', code: 'VIE' },
  { name: 'Prague', code: 'PRG' },
  { name: 'Athens', code: 'ATH' },
];
const HOTEL_CITIES = ['Porto', 'Seville', 'Florence', 'Krakow', 'Lyon', 'Munich', 'Valencia', 'Bruges', 'Salzburg', 'Geneva'];
const PREFIXES = ['Hotel', 'Casa', 'Villa', 'Maison', 'Palazzo'];
const NAMES = [
  'Aurora', 'Miramar', 'Azul', 'Bellavista', 'Cedro', 'Dorada', 'Estrela', 'Fontana', 'Girasol', 'Haven', 'Isola',
  'Jardim', 'Kastell', 'Lumen', 'Marina', 'Nova', 'Oliva', 'Perla', 'Quinta', 'Rosales', 'Sereno', 'Tivoli',
  'Umbra', 'Verde', 'Windrose', 'Xenia', 'Yara', 'Zefiro', 'Alba', 'Brisa', 'Corvo', 'Duna', 'Elmo', 'Faro',
  'Gaia', 'Hera', 'Iris', 'Jade', 'Koru', 'Lago', 'Mistral', 'Nido', 'Onda', 'Pino', 'Ria', 'Sole', 'Terra',
  'Ulivo', 'Vento', 'Zenit', 'Arco', 'Borgo', 'Cala', 'Delta', 'Ebro', 'Fiore', 'Grano', 'Helios', 'Ilex', 'Luna',
];
const AREAS = ['Old Town', 'Riverside', 'City Centre', 'Station Quarter', 'Harbour District', 'University Area'];
const AIRLINES = ['AE', 'NL', 'SK', 'IB', 'TP'];

/** The schedule runs for 14 days from this date. */
export const FIRST_DAY = '2025-03-10';
export const SCHEDULE_DAYS = 14;

export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;

/** Each origin flies to two destinations: ten routes. */
export function routesOf(): [City, City][] {
  return ORIGINS.flatMap((o, i) => [
    [o, DESTINATIONS[i] as City],
    [o, DESTINATIONS[(i + 2) % DESTINATIONS.length] as City],
  ]);
}

function makeFlights(random: () => number): Flight[] {
  const flights: Flight[] = [];
  const used = new Set<string>();
  const flightNo = () => {
    for (;;) {
      const no = `${AIRLINES[Math.floor(random() * AIRLINES.length)]}${100 + Math.floor(random() * 900)}`;
      if (!used.has(no)) {
        used.add(no);
        return no;
      }
    }
  };
  for (const [from, to] of routesOf()) {
    const base = 70 + Math.floor(random() * 90);
    const baseMinutes = 140 + Math.floor(random() * 120);
    for (let day = 0; day < SCHEDULE_DAYS; day++) {
      const date = addDays(FIRST_DAY, day);
      const dayFactor = 0.8 + random() * 0.5;
      const count = 6 + Math.floor(random() * 4);
      const deps = new Set<number>();
      while (deps.size < count) deps.add(330 + Math.floor(random() * 200) * 5);
      for (const dep of [...deps].sort((a, b) => a - b)) {
        const stops = random() < 0.5 ? 0 : random() < 0.7 ? 1 : 2;
        const minutes = baseMinutes + stops * (60 + Math.floor(random() * 18) * 5);
        // Early departures cost more (business travel); connections cost less.
        const early = dep < 540 ? 1.25 : 1;
        const price = Math.round(base * dayFactor * early * (0.75 + random() * 0.8) * (1 - stops * 0.12));
        flights.push({ id: flights.length + 1, no: flightNo(), from: from.code, to: to.code, date, dep: clock(dep), arr: clock(dep + minutes), minutes, stops, price });
      }
    }
  }
  return flights;
}

function makeHotels(random: () => number): Hotel[] {
  const hotels: Hotel[] = [];
  const names = [...NAMES];
  for (const city of HOTEL_CITIES) {
    for (let k = 0; k < 6; k++) {
      const word = names.splice(Math.floor(random() * names.length), 1)[0] as string;
      const stars = 2 + Math.floor(random() * 4);
      const nightly = 45 + stars * 18 + Math.floor(random() * 60);
      const flexible = random() < 0.75;
      hotels.push({
        id: hotels.length + 1,
        name: `${PREFIXES[Math.floor(random() * PREFIXES.length)]} ${word}`,
        city,
        stars,
        area: AREAS[Math.floor(random() * AREAS.length)] as string,
        nightly,
        flexNightly: flexible ? nightly + 8 + Math.floor(random() * 25) : 0,
        serviceFee: 8 + Math.floor(random() * 13),
      });
    }
  }
  return hotels;
}

/** Room, city tax and service fee for a stay: the figure the hotel page shows only after "Update total". */
export function stayTotal(db: TravelDb, hotel: Hotel, nights: number, rate: 'standard' | 'flexible'): number {
  const nightly = rate === 'flexible' && hotel.flexNightly ? hotel.flexNightly : hotel.nightly;
  return Math.round((nightly * nights + (db.cityTax[hotel.city] ?? 0) * nights + hotel.serviceFee) * 100) / 100;
}

function makeBookings(random: () => number, db: TravelDb): Booking[] {
  const bookings: Booking[] = [];
  const refs = new Set<string>();
  for (let i = 0; i < 22; i++) {
    let ref = `TD${1000 + Math.floor(random() * 4000)}`;
    while (refs.has(ref)) ref = `TD${1000 + Math.floor(random() * 4000)}`;
    refs.add(ref);
    const status = i % 7 === 6 ? 'cancelled' : 'confirmed';
    if (i % 2 === 0) {
      const f = db.flights[Math.floor(random() * db.flights.length)] as Flight;
      const name = (code: string) => [...db.origins, ...db.destinations].find((c) => c.code === code)?.name ?? code;
      bookings.push({ ref, kind: 'flight', title: `${f.no} ${name(f.from)} → ${name(f.to)}`, date: f.date, nights: 0, hotelId: 0, rate: '', total: f.price, status });
    } else {
      const h = db.hotels[Math.floor(random() * db.hotels.length)] as Hotel;
      const nights = 1 + Math.floor(random() * 6);
      const rate = h.flexNightly && random() < 0.5 ? 'flexible' : 'standard';
      const date = addDays(FIRST_DAY, Math.floor(random() * SCHEDULE_DAYS));
      bookings.push({ ref, kind: 'hotel', title: `${h.name}, ${h.city}`, date, nights, hotelId: h.id, rate, total: stayTotal(db, h, nights, rate), status });
    }
  }
  return bookings;
}

export function createDb(seed: number): TravelDb {
  const random = seededRandom('travel', seed);
  const db: TravelDb = { origins: ORIGINS, destinations: DESTINATIONS, flights: [], hotels: [], cityTax: {}, bookings: [] };
  db.flights = makeFlights(random);
  db.hotels = makeHotels(random);
  for (const city of HOTEL_CITIES) db.cityTax[city] = 1 + Math.floor(random() * 7) * 0.5;
  db.bookings = makeBookings(random, db);
  // Fresh copies of the constant city lists: the database is plain data owned by the episode.
  return JSON.parse(JSON.stringify(db)) as TravelDb;
}

/** The reference of the next new booking (above every seeded one, which are below TD5000). */
export function nextRef(db: TravelDb): string {
  return `TD${5000 + db.bookings.length * 7}`;
}
