// ShopLite (shop): the cheapest well-rated product of a department, a product's spec, ordering with a coupon, an
// order total with tax, a weight difference in grams. The generic procedure knows online stores (search box,
// department listings, product pages with spec sections, cart and checkout) but not this store's quirks, so where
// several routes are plausible it picks one, seeded by the task, keeping the routes failed siblings took for last.
import type { AxNode } from '../../../browser/observation.ts';
import { find, textLines, valueOf } from '../../../browser/snapshot.ts';
import { chooseWay, type SolveContext, type WebSolver } from '../solver.ts';

type Check = (actions: string[]) => boolean;

const has = (re: RegExp): Check => (acts) => acts.some((a) => re.test(a));
const lastIs = (re: RegExp): Check => (acts) => re.test(acts.filter((a) => !/^ANSWER/i.test(a)).at(-1) ?? '');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nodes = (ctx: SolveContext) => ctx.page().nodes;

const numberIn = (s: string | undefined) => {
  const m = s?.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?/);
  return m ? Number(m[0]) : undefined;
};
const cents = (s: string | undefined) => {
  const n = numberIn(s?.replace(/^[^$\d]*\$/, ''));
  return n === undefined ? undefined : n.toFixed(2);
};

interface Row {
  name: string;
  stars?: number;
  price?: number;
}

/** Product rows of a listing table: the link's name, "N out of 5 stars" and the "$" cell. */
function rowsOf(all: AxNode[]): Row[] {
  const out: Row[] = [];
  all.forEach((n, i) => {
    if (n.role !== 'row') return;
    const inside: AxNode[] = [];
    for (const m of all.slice(i + 1)) {
      if (m.depth <= n.depth) break;
      inside.push(m);
    }
    const link = inside.find((m) => m.role === 'link');
    if (!link) return;
    const texts = inside.map((m) => m.name || m.text || '');
    const stars = texts.map((t) => t.match(/([\d.]+) out of 5 stars/)).find(Boolean);
    const price = texts.find((t) => /^\$[\d,]+\.\d\d$/.test(t));
    out.push({ name: link.name, ...(stars ? { stars: Number(stars[1]) } : {}), ...(price ? { price: numberIn(price) as number } : {}) });
  });
  return out;
}

async function openProduct(ctx: SolveContext, name: string): Promise<void> {
  await ctx.act(`Type searchbox "Search"; ${name}`, 'search the product by name');
  await ctx.act(`Click link "${name}"`, 'open its page');
}

// --- cheapest product of a department rated at least t -----------------------------------------------------

const CHEAPEST = /cheapest (\S+) product rated at least ([\d.]+) stars/i;

/** The lowest price among listed rows whose stars reach t. */
function cheapestListed(ctx: SolveContext, t: number, firstOnly = false): string | undefined {
  const fits = rowsOf(nodes(ctx)).filter((r) => (r.stars ?? 0) >= t && r.price !== undefined);
  const prices = fits.map((r) => r.price as number);
  if (!prices.length) return undefined;
  return (firstOnly ? (prices[0] as number) : Math.min(...prices)).toFixed(2);
}

async function cheapestRated(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, dept, tText] = m as unknown as [string, string, string];
  const t = Number(tText);
  // Both listing routes read the star figures off a listing: when a sibling that did so failed, neither is trusted.
  const readStars: Check = (acts) => !has(/Refine/i)(acts);
  const way = chooseWay(ctx, [
    { id: 'listing', weight: 0.3, tookBy: readStars },
    { id: 'refine', weight: 0.35, tookBy: has(/Refine/i) },
    { id: 'search', weight: 0.35, tookBy: readStars },
  ]);
  if (way === 'search') {
    await ctx.act(`Type searchbox "Search"; ${dept}`, 'search the department');
    await ctx.act('Select combobox "Sort results by"; Price: low to high', 'cheapest first');
    await ctx.act('Click button "Sort"', 'apply the sort');
    return cheapestListed(ctx, t, true);
  }
  await ctx.act(`Click link "${dept}"`, 'open the department');
  if (way === 'refine') {
    await ctx.act('Click generic "Refine ▸"', 'open the refine panel');
    await ctx.act('Select combobox "Sort by"; Price: low to high', 'cheapest first');
    await ctx.act(`Select combobox "Minimum rating"; ${tText} & up`, 'only products rated high enough');
    await ctx.act('Click button "Apply"', 'apply');
  }
  return cheapestListed(ctx, t);
}

// --- a spec value --------------------------------------------------------------------------------------------

const SPEC = /what is the (.+?) of the "([^"]+)"\?/i;
const SECTIONS = { manufacturer: 'From the manufacturer', questions: 'Customer questions', technical: 'Technical details' } as const;

/** The spec's figure on the page: a table row labelled with it, or a customer's "About N" answer about it. */
function specOnPage(all: AxNode[], label: string): string | undefined {
  const row = valueOf(all, label);
  if (row) return String(numberIn(row) ?? row);
  const text = textLines(all).join('\n');
  const qa = text.match(new RegExp(`${escapeRe(label)} do you really get\\?[\\s\\S]*?About ([\\d.]+)`, 'i'));
  return qa?.[1];
}

async function specValue(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, label, name] = m as unknown as [string, string, string];
  const way = chooseWay(ctx, (Object.keys(SECTIONS) as (keyof typeof SECTIONS)[]).map((k) => ({ id: k, tookBy: has(new RegExp(`generic "${SECTIONS[k]}"`, 'i')) })));
  await openProduct(ctx, name);
  await ctx.act(`Click generic "${SECTIONS[way]}"`, 'the spec should be in this section');
  return specOnPage(nodes(ctx), label);
}

// --- ordering with a coupon ----------------------------------------------------------------------------------

const COUPON = /order one "([^"]+)" with the coupon code (\S+?)\.?$/i;

async function couponOrder(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, name, code] = m as unknown as [string, string, string];
  const way = chooseWay(ctx, [
    { id: 'buy-now', weight: 0.3, tookBy: has(/button "Buy now"/i) },
    { id: 'voucher', weight: 0.28, tookBy: has(/Gift card or voucher/i) },
    { id: 'payment', weight: 0.25, tookBy: has(/textbox "Coupon code"/i) },
    // Places the order from the shipping step, where no coupon field was seen.
    { id: 'shipping', weight: 0.17, tookBy: (acts) => !has(/Continue to payment|Buy now/i)(acts) },
  ]);
  await openProduct(ctx, name);
  if (way === 'buy-now') {
    await ctx.act('Click button "Buy now"', 'the quickest way to order one');
    await ctx.act('Click button "Place your order"', 'place it');
    return 'done';
  }
  await ctx.act('Click button "Add to cart"', 'into the cart');
  if (way === 'voucher') await ctx.act(`Type textbox "Gift card or voucher"; ${code}`, 'enter the code in the cart');
  await ctx.act('Click button "Proceed to checkout"', 'checkout');
  if (way !== 'shipping') await ctx.act('Click button "Continue to payment"', 'next step');
  if (way === 'payment') await ctx.act(`Type textbox "Coupon code"; ${code}`, 'enter the coupon');
  await ctx.act('Click button "Place your order"', 'place the order');
  return 'done';
}

// --- order total with tax ------------------------------------------------------------------------------------

const TOTAL = /order total for (\d+) of the "([^"]+)" including tax/i;

async function orderTotal(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, qty, name] = m as unknown as [string, string, string];
  // A sibling that read the total at some step and failed: read it further along.
  const way = chooseWay(ctx, [
    { id: 'cart', weight: 1, tookBy: lastIs(/button "(Add to cart|Proceed to checkout)"/i) },
    { id: 'shipping', weight: 1, tookBy: lastIs(/button "Proceed to checkout"/i) },
    { id: 'payment', weight: 1, tookBy: has(/button "Continue to payment"/i) },
  ]);
  await openProduct(ctx, name);
  await ctx.act(`Select combobox "Quantity"; ${qty}`, 'the quantity asked');
  await ctx.act('Click button "Add to cart"', 'into the cart');
  if (way === 'cart') return cents(valueOf(nodes(ctx), 'Cart total'));
  await ctx.act('Click button "Proceed to checkout"', 'checkout shows the totals');
  if (way === 'shipping') return cents(valueOf(nodes(ctx), 'Estimated total'));
  await ctx.act('Click button "Continue to payment"', 'the payment step');
  return cents(valueOf(nodes(ctx), 'Order total'));
}

// --- weight difference in grams ------------------------------------------------------------------------------

const WEIGHT = /how many grams heavier is the "([^"]+)" than the "([^"]+)"/i;
const GRAMS: Record<string, number> = { g: 1, kg: 1000, lb: 453.592, oz: 28.3495 };

/** The product page's weight in grams, whatever unit it is shown in. */
function gramsOnPage(all: AxNode[]): number | undefined {
  const m = valueOf(all, 'Weight')?.match(/([\d.,]+)\s*(kg|g|lb|oz)\b/i);
  return m ? Number((m[1] as string).replace(/,/g, '')) * (GRAMS[(m[2] as string).toLowerCase()] as number) : undefined;
}

const onProduct = (ctx: SolveContext, name: string) => !!find(nodes(ctx), 'heading', name);

async function weightOf(ctx: SolveContext, name: string): Promise<number | undefined> {
  if (!onProduct(ctx, name)) await openProduct(ctx, name);
  return gramsOnPage(nodes(ctx));
}

async function weightDiff(ctx: SolveContext, m: RegExpMatchArray): Promise<string | undefined> {
  const [, heavy, light] = m as unknown as [string, string, string];
  const way = chooseWay(ctx, [
    { id: 'pounds', weight: 1, tookBy: (acts) => !has(/combobox "Units"/i)(acts) },
    { id: 'kg', weight: 1, tookBy: has(/Metric \(kg\)/i) },
    { id: 'grams', weight: 1, tookBy: has(/Metric \(g\)/i) },
  ]);
  if (way !== 'pounds') {
    await ctx.act('Click link "Settings"', 'switch the store to metric units');
    await ctx.act(`Select combobox "Units"; ${way === 'kg' ? 'Metric (kg)' : 'Metric (g)'}`, 'metric');
    await ctx.act('Click button "Save settings"', 'save');
  }
  return diffOf(ctx, heavy, light);
}

/** Reads the page we are on first (a replay ends on one of the two products), then the other. */
async function diffOf(ctx: SolveContext, heavy: string, light: string): Promise<string | undefined> {
  const order = onProduct(ctx, light) ? [light, heavy] : [heavy, light];
  const grams: Record<string, number | undefined> = {};
  for (const name of order) grams[name] = await weightOf(ctx, name);
  const [h, l] = [grams[heavy], grams[light]];
  return h === undefined || l === undefined ? undefined : String(Math.round(h - l));
}

// --- dispatch ------------------------------------------------------------------------------------------------

export const shopSolver: WebSolver = {
  site: 'shop',
  async generic(ctx) {
    const s = ctx.instruction;
    const cheap = s.match(CHEAPEST);
    if (cheap) return cheapestRated(ctx, cheap);
    const spec = s.match(SPEC);
    if (spec) return specValue(ctx, spec);
    const coupon = s.match(COUPON);
    if (coupon) return couponOrder(ctx, coupon);
    const total = s.match(TOTAL);
    if (total) return orderTotal(ctx, total);
    const weight = s.match(WEIGHT);
    if (weight) return weightDiff(ctx, weight);
    return undefined;
  },
  async finish(ctx) {
    const s = ctx.instruction;
    const cheap = s.match(CHEAPEST);
    if (cheap) return cheapestListed(ctx, Number(cheap[2]));
    const spec = s.match(SPEC);
    if (spec) return specOnPage(nodes(ctx), spec[1] as string);
    if (COUPON.test(s)) return 'done';
    if (TOTAL.test(s)) {
      if (!valueOf(nodes(ctx), 'Order total') && find(nodes(ctx), 'button', 'Continue to payment')) await ctx.act('Click button "Continue to payment"', 'the payment step shows the total');
      return cents(valueOf(nodes(ctx), 'Order total'));
    }
    const weight = s.match(WEIGHT);
    if (weight) return diffOf(ctx, weight[1] as string, weight[2] as string);
    return undefined;
  },
};
