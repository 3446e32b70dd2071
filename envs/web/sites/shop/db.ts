// ShopLite's data: six departments of products with ratings, prices (in cents), weights (in grams) and numeric
// specs, each spec with the manufacturer's rosier claim and a customer's estimate beside the measured value. The
// cart, the coupons and the orders the checkout writes. Plain JSON, rebuilt from the seed for every episode.
import { seededRandom } from '../../../../engine/random.ts';
import type { SiteDb } from '../../site.ts';

export interface Spec {
  label: string;
  unit: string;
  /** The measured value (Technical details). */
  value: number;
  /** The manufacturer's claim ("up to …" or "as low as …"). */
  claim: number;
  /** A customer's figure in the questions section. */
  customer: number;
}

export interface Product {
  id: number;
  name: string;
  brand: string;
  category: string;
  /** Cents. */
  price: number;
  /** 1 decimal, 2.8–4.9. */
  rating: number;
  ratings: number;
  weightGrams: number;
  specs: Spec[];
}

export interface Coupon {
  code: string;
  percent: number;
}

export interface CartLine {
  productId: number;
  qty: number;
}

export interface Cart {
  lines: CartLine[];
  /** Upper-case code applied on the payment step. */
  coupon: string | null;
  /** What was typed into the cart's gift card field (never a discount). */
  voucher: string | null;
}

export interface OrderLine {
  productId: number;
  name: string;
  qty: number;
  price: number;
}

export interface Order {
  id: number;
  lines: OrderLine[];
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  coupon: string | null;
  voucher: string | null;
  placedOn: string;
}

export interface ShopDb extends SiteDb {
  categories: string[];
  products: Product[];
  coupons: Coupon[];
  cart: Cart;
  orders: Order[];
  nextOrderId: number;
  /** Percent, e.g. 8.25. */
  taxRate: number;
  today: string;
  account: { name: string; address: string };
}

interface SpecKind {
  label: string;
  unit: string;
  range: [number, number];
  decimals: number;
  /** Claims overstate (up) or understate (down) the measured value. */
  claim: 'up' | 'down';
}

interface Department {
  name: string;
  nouns: string[];
  brands: string[];
  price: [number, number];
  weight: [number, number];
  specs: SpecKind[];
}

const DEPARTMENTS: Department[] = [
  {
    name: 'Kitchen', nouns: ['Kettle', 'Blender', 'Toaster', 'Air Fryer', 'Coffee Maker', 'Stand Mixer'], brands: ['Vireo', 'Castell', 'Brio', 'Hearth'],
    price: [1900, 18900], weight: [700, 6500],
    specs: [{ label: 'Capacity', unit: 'L', range: [0.8, 5.5], decimals: 1, claim: 'up' }, { label: 'Power', unit: 'W', range: [600, 2200], decimals: 0, claim: 'up' }],
  },
  {
    name: 'Audio', nouns: ['Headphones', 'Earbuds', 'Speaker', 'Soundbar'], brands: ['Nimbus', 'Sonora', 'Quell', 'Arcway'],
    price: [2900, 34900], weight: [40, 3800],
    specs: [{ label: 'Battery life', unit: 'h', range: [6, 60], decimals: 0, claim: 'up' }, { label: 'Charging time', unit: 'h', range: [1, 4], decimals: 1, claim: 'down' }],
  },
  {
    name: 'Laptops', nouns: ['Laptop', 'Ultrabook', 'Chromebook', 'Notebook'], brands: ['Corvid', 'Lumen', 'Ferro', 'Tessel'],
    price: [24900, 189900], weight: [980, 2900],
    specs: [{ label: 'Battery life', unit: 'h', range: [5, 22], decimals: 0, claim: 'up' }, { label: 'Brightness', unit: 'nits', range: [250, 600], decimals: 0, claim: 'up' }],
  },
  {
    name: 'Outdoor', nouns: ['Tent', 'Backpack', 'Lantern', 'Sleeping Bag', 'Camp Stove'], brands: ['Ridgeline', 'Kestrel', 'Alpina', 'Tundra'],
    price: [1500, 42900], weight: [300, 5200],
    specs: [{ label: 'Capacity', unit: 'L', range: [12, 75], decimals: 0, claim: 'up' }, { label: 'Burn time', unit: 'h', range: [4, 40], decimals: 0, claim: 'up' }],
  },
  {
    name: 'Garden', nouns: ['Trimmer', 'Leaf Blower', 'Hose Reel', 'Sprinkler', 'Hedge Cutter'], brands: ['Verdant', 'Thorne', 'Greystone', 'Bramble'],
    price: [1200, 29900], weight: [450, 7400],
    specs: [{ label: 'Power', unit: 'W', range: [300, 1800], decimals: 0, claim: 'up' }, { label: 'Run time', unit: 'min', range: [15, 90], decimals: 0, claim: 'up' }],
  },
  {
    name: 'Office', nouns: ['Desk Lamp', 'Monitor', 'Shredder', 'Webcam', 'Keyboard'], brands: ['Ledger', 'Quill', 'Stratus', 'Pivot'],
    price: [1400, 49900], weight: [150, 6800],
    specs: [{ label: 'Power', unit: 'W', range: [4, 220], decimals: 0, claim: 'up' }, { label: 'Noise level', unit: 'dB', range: [24, 62], decimals: 0, claim: 'down' }],
  },
];

const COUPONS: Coupon[] = [
  { code: 'SAVE10', percent: 10 }, { code: 'SPRING15', percent: 15 }, { code: 'HOME12', percent: 12 },
  { code: 'DEAL20', percent: 20 }, { code: 'WELCOME5', percent: 5 }, { code: 'TAKE8', percent: 8 },
];

const MODEL_LETTERS = 'ABCDEFGHKLMNPRSTVXZ';

const between = (random: () => number, lo: number, hi: number) => lo + random() * (hi - lo);
const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** A value that differs from `value` by a factor between lo and hi, rounded like it (and never equal to it). */
function shifted(random: () => number, value: number, lo: number, hi: number, decimals: number): number {
  const step = 10 ** -decimals;
  const v = round(value * between(random, lo, hi), decimals);
  if (v !== value) return v;
  return round(value + (hi > 1 ? step : -step), decimals);
}

function specOf(random: () => number, kind: SpecKind): Spec {
  const value = round(between(random, kind.range[0], kind.range[1]), kind.decimals);
  const claim = kind.claim === 'up' ? shifted(random, value, 1.15, 1.45, kind.decimals) : shifted(random, value, 0.6, 0.85, kind.decimals);
  const customer = kind.claim === 'up' ? shifted(random, value, 0.75, 0.92, kind.decimals) : shifted(random, value, 1.08, 1.3, kind.decimals);
  return { label: kind.label, unit: kind.unit, value, claim, customer };
}

/** A price ending in .99 or .49, in cents. */
function priceOf(random: () => number, [lo, hi]: [number, number]): number {
  const dollars = Math.floor(between(random, lo, hi) / 100);
  return dollars * 100 + (random() < 0.7 ? 99 : 49);
}

function departmentProducts(random: () => number, dept: Department, firstId: number, taken: Set<string>): Product[] {
  const count = 10 + Math.floor(random() * 3);
  const out: Product[] = [];
  while (out.length < count) {
    const brand = dept.brands[Math.floor(random() * dept.brands.length)] as string;
    const noun = dept.nouns[Math.floor(random() * dept.nouns.length)] as string;
    const model = `${MODEL_LETTERS[Math.floor(random() * MODEL_LETTERS.length)]}${2 + Math.floor(random() * 8)}`;
    const name = `${brand} ${model} ${noun}`;
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({
      id: firstId + out.length,
      name,
      brand,
      category: dept.name,
      price: priceOf(random, dept.price),
      rating: round(between(random, 2.8, 4.95), 1),
      ratings: 8 + Math.floor(random() * 2400),
      weightGrams: Math.round(between(random, dept.weight[0], dept.weight[1])),
      specs: dept.specs.map((k) => specOf(random, k)),
    });
  }
  return out;
}

export const RATING_THRESHOLDS = [3.5, 4.0, 4.5];

/**
 * Ratings laid out so that every "rated at least t" question has a trap: going up the price list, a product just
 * under t (t − 0.1 or − 0.2, which the listing's half stars show as t) comes before the cheapest product really
 * rated t or more. Products in between stay under the next threshold still to be placed.
 */
function assignRatings(random: () => number, dept: Product[]): void {
  const byPrice = [...dept].sort((a, b) => a.price - b.price || a.id - b.id);
  const slots = new Set<number>();
  while (slots.size < RATING_THRESHOLDS.length * 2) slots.add(Math.floor(random() * byPrice.length));
  const ladder = RATING_THRESHOLDS.flatMap((t) => [round(t - (random() < 0.5 ? 0.1 : 0.2), 1), round(t + Math.floor(random() * 4) / 10, 1)]);
  let next = 0;
  byPrice.forEach((p, i) => {
    const pending = RATING_THRESHOLDS[Math.floor(next / 2)];
    if (slots.has(i)) p.rating = ladder[next++] as number;
    else p.rating = round(between(random, 2.8, pending === undefined ? 4.9 : pending - 0.1), 1);
  });
}

export function createDb(seed: number): ShopDb {
  const random = seededRandom('shop', seed);
  const taken = new Set<string>();
  const products: Product[] = [];
  for (const dept of DEPARTMENTS) {
    const made = departmentProducts(random, dept, products.length + 1, taken);
    assignRatings(random, made);
    products.push(...made);
  }
  return {
    categories: DEPARTMENTS.map((d) => d.name),
    products,
    coupons: COUPONS.map((c) => ({ ...c })),
    cart: { lines: [], coupon: null, voucher: null },
    orders: [],
    nextOrderId: 1001,
    taxRate: 8.25,
    today: '2024-05-14',
    account: { name: 'Sam Rivera', address: '18 Harbor Lane, Portland, OR 97201' },
  };
}

// --- money and display helpers shared by pages and templates ------------------------------------------------

export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The listing's star figure: the rating rounded to the nearest half star. */
export const shownStars = (rating: number) => Math.round(rating * 2) / 2;

export const SHIPPING_CENTS = 599;
export const FREE_SHIPPING_FROM = 5000;

export interface Totals {
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
}

/** Cart arithmetic: coupon off the items, shipping under $50, tax on the discounted items. */
export function totalsOf(db: ShopDb, lines: CartLine[], coupon: string | null): Totals {
  const subtotal = lines.reduce((s, l) => s + (db.products.find((p) => p.id === l.productId)?.price ?? 0) * l.qty, 0);
  const percent = db.coupons.find((c) => c.code === coupon)?.percent ?? 0;
  const discount = Math.round((subtotal * percent) / 100);
  const items = subtotal - discount;
  const shipping = subtotal === 0 || subtotal >= FREE_SHIPPING_FROM ? 0 : SHIPPING_CENTS;
  const tax = Math.round((items * db.taxRate) / 100);
  return { subtotal, discount, shipping, tax, total: items + shipping + tax };
}

export type Units = 'lb' | 'kg' | 'g';

export function weightText(grams: number, units: Units): string {
  if (units === 'g') return `${grams} g`;
  if (units === 'kg') return `${(grams / 1000).toFixed(1)} kg`;
  return `${(grams / 453.592).toFixed(1)} lb`;
}

export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
