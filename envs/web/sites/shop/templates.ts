// ShopLite's task templates. Each instance is drawn from a list of candidates built from the database (so the 15
// instances differ in arguments and answers), in an order shuffled by the template's own seed.
//   cheapest-rated  the department listing rounds ratings to half stars; the exact rating filter and the price
//                   sort hide under "Refine ▸".
//   spec-value      the measured value is only under the collapsed "Technical details"; the manufacturer's and a
//                   customer's figures sit in sections above it.
//   coupon-order    (state) the coupon field exists only on the payment step; the cart's "Gift card or voucher"
//                   field, "Buy now" and the shipping step's "Place your order" end in an order without it.
//   order-total     tax appears only on the payment step ("Order total"); the cart and shipping step show totals
//                   without it.
//   weight-diff     weights show in pounds (one decimal) until Settings › Units is "Metric (g)".
import { seededRandom } from '../../../../engine/random.ts';
import { numberAnswer, stateCheck } from '../../check.ts';
import type { WebInstance, WebTemplate } from '../../site.ts';
import { money, type Product, RATING_THRESHOLDS, type ShopDb, shownStars, totalsOf } from './db.ts';

/** The candidates in the template's own seeded order, without repeated keys. */
function ordered<T>(templateId: string, items: T[], key: (item: T) => string): T[] {
  const random = seededRandom('shop-template', templateId);
  const list = items.map((item) => ({ item, r: random() })).sort((a, b) => a.r - b.r);
  const seen = new Set<string>();
  return list.map((x) => x.item).filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

function pick<T>(list: T[], instance: number, templateId: string): T {
  if (!list.length) throw new Error(`shop/${templateId}: no candidates`);
  return list[instance % list.length] as T;
}

const cheapest = (products: Product[]) => [...products].sort((a, b) => a.price - b.price || a.id - b.id)[0];
const dollars = (cents: number) => (cents / 100).toFixed(2);

const cheapestRated: WebTemplate<ShopDb> = {
  id: 'cheapest-rated',
  quirk:
    'the listing rounds ratings to half stars; the exact "Minimum rating" filter and the price sort hide under "Refine ▸"',
  generate(_random, instance, db): WebInstance<ShopDb> {
    const combos = db.categories.flatMap((category) =>
      RATING_THRESHOLDS.map((t) => {
        const inDept = db.products.filter((p) => p.category === category);
        return {
          category,
          t,
          real: cheapest(inDept.filter((p) => p.rating >= t)),
          shown: cheapest(inDept.filter((p) => shownStars(p.rating) >= t)),
        };
      }),
    );
    const valid = combos.filter((c) => c.real && c.shown && c.real.price !== c.shown.price);
    const c = pick(
      ordered('cheapest-rated', valid, (x) => String(x.real?.price)),
      instance,
      'cheapest-rated',
    );
    const real = c.real as Product;
    const t = c.t.toFixed(1);
    return {
      instruction: `On ShopLite, find the cheapest ${c.category} product rated at least ${t} stars and give its price.`,
      start: '/',
      check: ({ answer }) => numberAnswer(real.price / 100, answer),
      oracle: [
        `Click link "${c.category}"`,
        'Click generic "Refine ▸"',
        'Select combobox "Sort by"; Price: low to high',
        `Select combobox "Minimum rating"; ${t} & up`,
        'Click button "Apply"',
        `ANSWER; ${dollars(real.price)}`,
      ],
      expected: `answer ${money(real.price)} (${real.name}, rated ${real.rating})`,
    };
  },
};

const specValue: WebTemplate<ShopDb> = {
  id: 'spec-value',
  quirk:
    'the measured spec is only in the collapsed "Technical details"; "From the manufacturer" and "Customer questions" give other figures',
  generate(_random, instance, db): WebInstance<ShopDb> {
    const pairs = db.products.flatMap((product) => product.specs.map((spec) => ({ product, spec })));
    const unique = ordered('spec-value', pairs, (x) => x.product.name).filter(
      (x, i, all) => all.findIndex((y) => y.spec.value === x.spec.value) === i,
    );
    const { product, spec } = pick(unique, instance, 'spec-value');
    return {
      instruction: `On ShopLite, what is the ${spec.label.toLowerCase()} of the "${product.name}"? Give the number.`,
      start: '/',
      check: ({ answer }) => numberAnswer(spec.value, answer),
      oracle: [
        `Type searchbox "Search"; ${product.name}`,
        `Click link "${product.name}"`,
        'Click generic "Technical details"',
        `ANSWER; ${spec.value}`,
      ],
      expected: `answer ${spec.value} ${spec.unit} (the manufacturer claims ${spec.claim}, a customer says ${spec.customer})`,
    };
  },
};

const couponOrder: WebTemplate<ShopDb> = {
  id: 'coupon-order',
  quirk:
    'the coupon field exists only on checkout step 2 (payment); the cart\'s "Gift card or voucher" field, "Buy now" and the shipping step\'s "Place your order" all end in an order without it',
  generate(random, instance, db): WebInstance<ShopDb> {
    const product = pick(
      ordered('coupon-order', db.products, (p) => p.name),
      instance,
      'coupon-order',
    );
    const coupon = db.coupons[Math.floor(random() * db.coupons.length)] as ShopDb['coupons'][number];
    return {
      instruction: `On ShopLite, order one "${product.name}" with the coupon code ${coupon.code}.`,
      start: '/',
      check: ({ before, after }) => {
        const added = after.orders.slice(before.orders.length);
        const order = added[0];
        const lines = order?.lines ?? [];
        return stateCheck(
          before,
          after,
          [
            { what: 'exactly one new order', holds: added.length === 1 },
            {
              what: `the order holds one ${product.name} and nothing else`,
              holds: lines.length === 1 && lines[0]?.productId === product.id && lines[0]?.qty === 1,
            },
            { what: `coupon ${coupon.code} applied to the order`, holds: order?.coupon === coupon.code },
          ],
          ['orders', 'cart', 'nextOrderId'],
        );
      },
      oracle: [
        `Type searchbox "Search"; ${product.name}`,
        `Click link "${product.name}"`,
        'Click button "Add to cart"',
        'Click button "Proceed to checkout"',
        'Click button "Continue to payment"',
        `Type textbox "Coupon code"; ${coupon.code}`,
        'Click button "Place your order"',
        'ANSWER; done',
      ],
      expected: `a new order of 1 × ${product.name} with coupon ${coupon.code} (${coupon.percent}% off)`,
    };
  },
};

const orderTotal: WebTemplate<ShopDb> = {
  id: 'order-total',
  quirk:
    'tax is only added on checkout step 2 (payment, "Order total"); the cart total and the shipping step\'s estimated total leave it out',
  generate(_random, instance, db): WebInstance<ShopDb> {
    // Quantities cycle 2, 3, 4 by instance; a product whose total an earlier instance already has is skipped.
    const qtyOf = (i: number) => 2 + (i % 3);
    const products = ordered('order-total', db.products, (p) => p.name);
    const totals = new Set<number>();
    let chosen: { product: Product; total: number } | undefined;
    for (let i = 0, k = 0; i <= instance && k < products.length; k++) {
      const product = products[k] as Product;
      const total = totalsOf(db, [{ productId: product.id, qty: qtyOf(i) }], null).total;
      if (totals.has(total)) continue;
      totals.add(total);
      chosen = { product, total };
      i++;
    }
    if (!chosen) throw new Error('shop/order-total: no candidates');
    const { product, total } = chosen;
    const qty = qtyOf(instance);
    return {
      instruction: `On ShopLite, what is the order total for ${qty} of the "${product.name}" including tax?`,
      start: '/',
      check: ({ answer }) => numberAnswer(total / 100, answer),
      oracle: [
        `Type searchbox "Search"; ${product.name}`,
        `Click link "${product.name}"`,
        `Select combobox "Quantity"; ${qty}`,
        'Click button "Add to cart"',
        'Click button "Proceed to checkout"',
        'Click button "Continue to payment"',
        `ANSWER; ${dollars(total)}`,
      ],
      expected: `answer ${money(total)} (${qty} × ${money(product.price)} with shipping and ${db.taxRate}% tax)`,
    };
  },
};

/** What an agent gets from weights shown rounded in `unit` (lb or kg, one decimal). */
function roundedDiff(a: number, b: number, gramsPerUnit: number): number {
  const shown = (g: number) => Math.round((g / gramsPerUnit) * 10) / 10;
  return Math.round((shown(a) - shown(b)) * gramsPerUnit);
}

const weightDiff: WebTemplate<ShopDb> = {
  id: 'weight-diff',
  quirk:
    'weights show in pounds with one decimal; Settings › Units › "Metric (g)" shows exact grams (the "Metric (kg)" option rounds too)',
  generate(_random, instance, db): WebInstance<ShopDb> {
    const byId = [...db.products].sort((a, b) => a.id - b.id);
    const pairs = byId.flatMap((a, i) =>
      byId.slice(i + 1).map((b) => (a.weightGrams > b.weightGrams ? { heavy: a, light: b } : { heavy: b, light: a })),
    );
    const fair = pairs.filter(({ heavy, light }) => {
      const diff = heavy.weightGrams - light.weightGrams;
      return (
        diff > 50 &&
        Math.abs(roundedDiff(heavy.weightGrams, light.weightGrams, 453.592) - diff) > 3 &&
        Math.abs(roundedDiff(heavy.weightGrams, light.weightGrams, 1000) - diff) > 3
      );
    });
    const ord = ordered('weight-diff', fair, (x) => String(x.heavy.weightGrams - x.light.weightGrams));
    const used = new Set<number>();
    const distinct = ord.filter(
      (x) => !used.has(x.heavy.id) && !used.has(x.light.id) && used.add(x.heavy.id) && used.add(x.light.id),
    );
    const { heavy, light } = pick(distinct, instance, 'weight-diff');
    const diff = heavy.weightGrams - light.weightGrams;
    return {
      instruction: `On ShopLite, how many grams heavier is the "${heavy.name}" than the "${light.name}"?`,
      start: '/',
      check: ({ answer }) => numberAnswer(diff, answer, { absolute: 1 }),
      oracle: [
        'Click link "Settings"',
        'Select combobox "Units"; Metric (g)',
        'Click button "Save settings"',
        `Type searchbox "Search"; ${heavy.name}`,
        `Click link "${heavy.name}"`,
        `Type searchbox "Search"; ${light.name}`,
        `Click link "${light.name}"`,
        `ANSWER; ${diff}`,
      ],
      expected: `answer ${diff} (${heavy.weightGrams} g − ${light.weightGrams} g)`,
    };
  },
};

export const SHOP_TEMPLATES: WebTemplate<ShopDb>[] = [cheapestRated, specValue, couponOrder, orderTotal, weightDiff];
