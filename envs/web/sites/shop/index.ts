// ShopLite: an Amazon-like store — departments, product pages with specs and ratings, a cart, a two-step
// checkout with coupons and tax, orders, and a units setting. Five task templates, each with one quirk.
import type { WebSite } from '../../site.ts';
import { catalogPage } from './catalog.ts';
import { checkoutPage } from './checkout.ts';
import { createDb, type ShopDb } from './db.ts';
import { notFound, SITE_TITLE } from './layout.ts';
import { SHOP_TEMPLATES } from './templates.ts';

export type { ShopDb } from './db.ts';

export const shopSite: WebSite<ShopDb> = {
  name: 'shop',
  title: SITE_TITLE,
  description:
    'ShopLite, an Amazon-like store: six departments of products with prices, ratings and spec tables, a cart, a two-step checkout (shipping, then payment with the coupon field, tax and order total), a "Buy now" express checkout, order history and a settings page for weight units. Tasks ask for the cheapest well-rated product of a department, a spec value, an order total with tax, a weight difference in grams, or to place an order with a coupon.',
  createDb,
  handle: (db, request) => catalogPage(db, request) ?? checkoutPage(db, request) ?? notFound('That page'),
  templates: SHOP_TEMPLATES,
};
