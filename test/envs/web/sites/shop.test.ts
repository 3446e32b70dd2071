import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random.ts';
import { closeBrowsers } from '../../../../envs/web/browser/browser.ts';
import { runOracle } from '../../../../envs/web/episode.ts';
import type { SiteRequest } from '../../../../envs/web/site.ts';
import { type Product, type ShopDb, shownStars } from '../../../../envs/web/sites/shop/db.ts';
import { shopSite } from '../../../../envs/web/sites/shop/index.ts';

const instance = (templateId: string, i: number, seed = 0) => {
  const t = shopSite.templates.find((x) => x.id === templateId);
  if (!t) throw new Error(templateId);
  return t.generate(seededRandom('test', templateId, i), i, shopSite.createDb(seed));
};
const request = (method: 'GET' | 'POST', path: string, query = '', form = '', cookies: Record<string, string> = {}): SiteRequest => ({
  method,
  path,
  query: new URLSearchParams(query),
  form: new URLSearchParams(form),
  cookies,
});
const get = (db: ShopDb, path: string, query = '', cookies: Record<string, string> = {}) => shopSite.handle(db, request('GET', path, query, '', cookies)).html ?? '';
const post = (db: ShopDb, path: string, form: string) => shopSite.handle(db, request('POST', path, '', form));
const byName = (db: ShopDb, name: string) => db.products.find((p) => p.name === name) as Product;

describe('shop site (handlers)', () => {
  it('builds the same database for a seed, a different one for another seed', () => {
    expect(shopSite.createDb(3)).toEqual(shopSite.createDb(3));
    expect(shopSite.createDb(3)).not.toEqual(shopSite.createDb(4));
    const db = shopSite.createDb(3);
    expect(JSON.parse(JSON.stringify(db))).toEqual(db);
    expect(db.products.length).toBeGreaterThanOrEqual(60);
    expect(new Set(db.products.map((p) => p.name)).size).toBe(db.products.length);
  });

  it('renders its pages; the listing rounds ratings to half stars; weights follow the units cookie', () => {
    const db = shopSite.createDb(0);
    for (const path of ['/', '/c/kitchen', '/search', '/p/1', '/cart', '/orders', '/settings']) expect(get(db, path)).toContain('ShopLite');
    expect(shopSite.handle(db, request('GET', '/nope')).status).toBe(404);
    const p = db.products.find((x) => x.category === 'Kitchen' && shownStars(x.rating) !== x.rating) as Product;
    expect(get(db, '/c/kitchen')).toContain(`${shownStars(p.rating).toFixed(1)} out of 5 stars`);
    expect(get(db, `/p/${p.id}`)).toContain(`Rating: ${p.rating.toFixed(1)} out of 5`);
    expect(get(db, `/p/${p.id}`)).toContain(' lb</dd>');
    expect(get(db, `/p/${p.id}`, '', { units: 'g' })).toContain(`${p.weightGrams} g</dd>`);
  });

  it('cart, coupon on the payment step and placing an order', () => {
    const db = shopSite.createDb(0);
    post(db, '/cart/add', 'product=4&qty=2');
    expect(db.cart.lines).toEqual([{ productId: 4, qty: 2 }]);
    expect(get(db, '/checkout/shipping')).toContain('Estimated total');
    expect(get(db, '/checkout/shipping')).not.toContain('Coupon code');
    post(db, '/checkout/coupon', 'code=save10');
    expect(db.cart.coupon).toBe('SAVE10');
    expect(get(db, '/checkout/payment')).toContain('Order total');
    expect(post(db, '/checkout/place', '').redirect).toBe('/orders/1001');
    expect(db.orders[0]?.coupon).toBe('SAVE10');
    expect(db.orders[0]?.discount).toBeGreaterThan(0);
    expect(db.cart.lines).toEqual([]);
  });

  for (const t of shopSite.templates) {
    it(`${t.id}: 15 distinct instances with distinct expected outcomes, for several seeds`, () => {
      for (const seed of [0, 1, 2, 5, 11]) {
        const all = Array.from({ length: 15 }, (_, i) => instance(t.id, i, seed));
        expect(new Set(all.map((x) => x.instruction)).size).toBe(15);
        expect(new Set(all.map((x) => x.expected)).size).toBe(15);
        expect(new Set(all.map((x) => x.oracle.at(-1))).size).toBe(t.id === 'coupon-order' ? 1 : 15);
        for (const x of all) expect(x.oracle.at(-1)).toMatch(/^ANSWER; /);
      }
    });
  }

  it('answer checkers reject wrong answers', () => {
    const db = shopSite.createDb(0);
    for (const id of ['cheapest-rated', 'spec-value', 'order-total', 'weight-diff']) {
      const x = instance(id, 1);
      const right = (x.oracle.at(-1) as string).replace('ANSWER; ', '');
      expect(x.check({ before: db, after: db, answer: right }).correct).toBe(true);
      expect(x.check({ before: db, after: db, answer: `$${right}` }).correct).toBe(true);
      expect(x.check({ before: db, after: db, answer: '9999' }).correct).toBe(false);
      expect(x.check({ before: db, after: db, answer: undefined }).correct).toBe(false);
    }
  });

  it('cheapest-rated: the half-star reading gives a different, cheaper product', () => {
    const x = instance('cheapest-rated', 3);
    const db = shopSite.createDb(0);
    const [, dept, t] = x.instruction.match(/cheapest (\S+) product rated at least ([\d.]+)/) as RegExpMatchArray;
    const inDept = db.products.filter((p) => p.category === dept).sort((a, b) => a.price - b.price);
    const shown = inDept.find((p) => shownStars(p.rating) >= Number(t)) as Product;
    expect(x.check({ before: db, after: db, answer: (shown.price / 100).toFixed(2) }).correct).toBe(false);
  });

  it('coupon-order: needs the order with the coupon, rejects voucher and Buy now orders and side effects', () => {
    const x = instance('coupon-order', 2);
    const before = shopSite.createDb(0);
    const [, name, code] = x.instruction.match(/one "(.+)" with the coupon code (\S+)\./) as RegExpMatchArray;
    const id = byName(before, name as string).id;
    expect(x.check({ before, after: before, answer: 'done' }).correct).toBe(false);

    const buyNow = structuredClone(before);
    post(buyNow, '/checkout/express', `p=${id}&qty=1`);
    expect(x.check({ before, after: buyNow, answer: 'done' }).correct).toBe(false);

    const voucher = structuredClone(before);
    post(voucher, '/cart/add', `product=${id}&qty=1`);
    post(voucher, '/cart/voucher', `code=${code}`);
    post(voucher, '/checkout/place', '');
    expect(x.check({ before, after: voucher, answer: 'done' }).correct).toBe(false);

    const after = structuredClone(before);
    post(after, '/cart/add', `product=${id}&qty=1`);
    post(after, '/checkout/coupon', `code=${(code as string).toLowerCase()}`);
    post(after, '/checkout/place', '');
    expect(x.check({ before, after, answer: 'done' }).correct).toBe(true);

    const extra = structuredClone(after);
    (extra.products[0] as Product).price += 100;
    expect(x.check({ before, after: extra, answer: 'done' }).note).toContain('changed outside the task');
    expect(x.check({ before, after: extra, answer: 'done' }).correct).toBe(false);
  });
});

describe('shop site (oracles through the browser)', { timeout: 120_000 }, () => {
  afterAll(() => closeBrowsers());
  for (const t of shopSite.templates) {
    it(`${t.id}: the oracle solves instances 0 and 1 (other arguments, other answers)`, async () => {
      for (const i of [0, 1]) {
        const r = await runOracle(shopSite, t.id, i);
        expect(r.correct, `${t.id}/${i}: ${r.note}\n${r.steps.join('\n')}`).toBe(true);
      }
    });
  }
});
