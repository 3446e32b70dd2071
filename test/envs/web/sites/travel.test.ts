import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random.ts';
import { closeBrowsers } from '../../../../envs/web/browser/browser.ts';
import { runOracle } from '../../../../envs/web/episode.ts';
import type { SiteRequest } from '../../../../envs/web/site.ts';
import type { TravelDb } from '../../../../envs/web/sites/travel/db.ts';
import { travelSite } from '../../../../envs/web/sites/travel/index.ts';

const instance = (templateId: string, i: number, seed = 0) => {
  const t = travelSite.templates.find((x) => x.id === templateId);
  if (!t) throw new Error(templateId);
  return t.generate(seededRandom('test', templateId, i), i, travelSite.createDb(seed));
};
const request = (method: 'GET' | 'POST', path: string, query = '', form = ''): SiteRequest => ({
  method,
  path,
  query: new URLSearchParams(query),
  form: new URLSearchParams(form),
  cookies: {},
});
const get = (db: TravelDb, path: string, query = '') => travelSite.handle(db, request('GET', path, query)).html ?? '';
const post = (db: TravelDb, path: string, form: string) => travelSite.handle(db, request('POST', path, '', form));

describe('travel site (handlers)', () => {
  it('builds the same plain-JSON database for a seed, a different one for another seed', () => {
    expect(travelSite.createDb(3)).toEqual(travelSite.createDb(3));
    expect(travelSite.createDb(3)).not.toEqual(travelSite.createDb(4));
    const db = travelSite.createDb(3);
    expect(JSON.parse(JSON.stringify(db))).toEqual(db);
    expect(new Set(db.hotels.map((h) => h.name)).size).toBe(db.hotels.length);
    expect(new Set(db.flights.map((f) => f.no)).size).toBe(db.flights.length);
  });

  it('renders its pages; flexible dates is on until unticked and mixes in six nearby-day flights', () => {
    const db = travelSite.createDb(0);
    for (const path of ['/', '/flights', '/hotels', '/hotels/1', '/bookings', `/bookings/${db.bookings[0]?.ref}`]) expect(get(db, path)).toContain('TravelDesk');
    expect(travelSite.handle(db, request('GET', '/nope')).status).toBe(404);
    const rows = (html: string) => (html.match(/<tr><td>/g) ?? []).length;
    const search = 'from=Lisbon&to=berlin&date=14/03/2025&sort=departure';
    const dayCount = db.flights.filter((f) => f.from === 'LIS' && f.to === 'BER' && f.date === '2025-03-14').length;
    expect(get(db, '/flights', `${search}&flex=0&flex=1`)).toContain(`${dayCount + 6} flights`);
    expect(get(db, '/flights', search)).toContain(`${dayCount + 6} flights`);
    expect(get(db, '/flights', `${search}&flex=0`)).toContain(`${dayCount} flights`);
    expect(rows(get(db, '/flights', `${search}&flex=0`))).toBe(Math.min(6, dayCount));
    expect(get(db, '/flights', 'from=Lisbon&to=Berlin&date=2025-03-32')).toContain('Enter the date as DD/MM/YYYY');
    expect(get(db, '/flights', 'from=Lisbon&to=Berlin&date=31/02/2025')).toContain('Enter the date as DD/MM/YYYY');
  });

  it('books a hotel with the chosen rate and cancels only after the terms are accepted', () => {
    const db = travelSite.createDb(0);
    const h = db.hotels.find((x) => x.flexNightly > 0) as TravelDb['hotels'][number];
    const n = db.bookings.length;
    expect(post(db, `/hotels/${h.id}/book`, 'rate=flexible&nights=3').redirect).toMatch(/^\/bookings\/TD\d+/);
    expect(db.bookings[n]).toMatchObject({ hotelId: h.id, nights: 3, rate: 'flexible', status: 'confirmed' });
    const ref = db.bookings[n]?.ref as string;
    expect(post(db, `/bookings/${ref}/cancel`, '').html).toContain('I accept the cancellation terms');
    expect(db.bookings[n]?.status).toBe('confirmed');
    expect(post(db, `/bookings/${ref}/cancel`, 'accept=1').redirect).toBe(`/bookings?cancelled=${ref}`);
    expect(db.bookings[n]?.status).toBe('cancelled');
  });

  for (const t of travelSite.templates) {
    it(`${t.id}: 15 distinct instances with distinct arguments and outcomes, for several seeds`, () => {
      for (const seed of [0, 1, 2, 7]) {
        const all = Array.from({ length: 15 }, (_, i) => instance(t.id, i, seed));
        expect(new Set(all.map((x) => x.instruction)).size).toBe(15);
        expect(new Set(all.map((x) => x.expected)).size).toBe(15);
        expect(new Set(all.map((x) => x.oracle.at(-1))).size).toBe(t.id === 'book-flexible' || t.id === 'cancel-booking' ? 1 : 15);
      }
    });
  }

  it('answer checkers reject wrong answers', () => {
    const db = travelSite.createDb(0);
    for (const id of ['cheapest-flight', 'earliest-flight', 'stay-total']) {
      const x = instance(id, 1);
      const right = (x.oracle.at(-1) as string).replace('ANSWER; ', '');
      expect(x.check({ before: db, after: db, answer: right }).correct).toBe(true);
      expect(x.check({ before: db, after: db, answer: '9999' }).correct).toBe(false);
      expect(x.check({ before: db, after: db, answer: undefined }).correct).toBe(false);
    }
  });

  it('book-flexible: needs the flexible rate and rejects a second booking', () => {
    const x = instance('book-flexible', 2);
    const before = travelSite.createDb(0);
    const m = x.instruction.match(/stay of (\d+) nights at (\S+ \S+) in/) as RegExpMatchArray;
    const hotel = before.hotels.find((h) => h.name === m[2]) as TravelDb['hotels'][number];
    expect(x.check({ before, after: before, answer: 'done' }).correct).toBe(false);
    const standard = structuredClone(before);
    post(standard, `/hotels/${hotel.id}/book`, `rate=standard&nights=${m[1]}`);
    expect(x.check({ before, after: standard, answer: 'done' }).correct).toBe(false);
    const after = structuredClone(before);
    post(after, `/hotels/${hotel.id}/book`, `rate=flexible&nights=${m[1]}`);
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(true);
    post(after, `/hotels/${hotel.id}/book`, `rate=flexible&nights=${m[1]}`);
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(false);
  });

  it('cancel-booking: needs the cancellation and rejects cancelling another booking too', () => {
    const x = instance('cancel-booking', 4);
    const before = travelSite.createDb(0);
    const ref = (x.instruction.match(/booking (TD\d+)/) as RegExpMatchArray)[1] as string;
    expect(x.check({ before, after: before, answer: 'done' }).correct).toBe(false);
    const after = structuredClone(before);
    post(after, `/bookings/${ref}/cancel`, 'accept=1');
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(true);
    const other = after.bookings.find((b) => b.ref !== ref && b.status === 'confirmed') as TravelDb['bookings'][number];
    post(after, `/bookings/${other.ref}/cancel`, 'accept=1');
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(false);
  });
});

describe('travel site (oracles through the browser)', { timeout: 120_000 }, () => {
  afterAll(() => closeBrowsers());
  for (const t of travelSite.templates) {
    it(`${t.id}: the oracle solves instances 0 and 1 (other arguments, other answers)`, async () => {
      for (const i of [0, 1]) {
        const r = await runOracle(travelSite, t.id, i);
        expect(r.correct, `${t.id}/${i}: ${r.note}\n${r.steps.join('\n')}`).toBe(true);
      }
    });
  }
});
