// Cart, the two-step checkout (shipping, where the order can already be placed with the default card, then
// payment — the only page with the coupon field and the tax), the "Buy now" express checkout (no coupon),
// orders and settings (weight units, kept in a cookie).
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import { type CartLine, money, type Order, type ShopDb, type Totals, totalsOf } from './db.ts';
import { notFound, shopPage } from './layout.ts';

const goTo = (path: string, msg?: string): SiteResponse => ({
  redirect: msg ? `${path}?msg=${encodeURIComponent(msg)}` : path,
});

const productName = (db: ShopDb, id: number) => db.products.find((p) => p.id === id)?.name ?? `#${id}`;

function linesTable(db: ShopDb, lines: CartLine[], removable: boolean): string {
  const rows = lines
    .map((l) => {
      const p = db.products.find((x) => x.id === l.productId);
      const name = productName(db, l.productId);
      const remove = removable
        ? `<td><form method="post" action="/cart/remove"><input type="hidden" name="product" value="${l.productId}"><button type="submit" aria-label="Remove ${esc(name)}">Remove</button></form></td>`
        : '';
      return `<tr><td><a href="/p/${l.productId}">${esc(name)}</a></td><td>${l.qty}</td><td>${money(p?.price ?? 0)}</td><td>${money((p?.price ?? 0) * l.qty)}</td>${remove}</tr>`;
    })
    .join('');
  return `<table><thead><tr><th>Product</th><th>Qty</th><th>Price</th><th>Line total</th>${removable ? '<th></th>' : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

function cartPage(db: ShopDb, msg: string | null): SiteResponse {
  const { lines } = db.cart;
  if (!lines.length) return shopPage('Your cart', '<p>Your cart is empty.</p>', msg);
  const t = totalsOf(db, lines, null);
  const voucher = `<form method="post" action="/cart/voucher" class="row"><label for="voucher">Gift card or voucher</label><input id="voucher" name="code" value="${esc(db.cart.voucher ?? '')}"><button type="submit">Redeem</button></form>`;
  const proceed = `<form method="get" action="/checkout/shipping"><button type="submit">Proceed to checkout</button></form>`;
  return shopPage(
    'Your cart',
    `${linesTable(db, lines, true)}<p><strong>Cart total: ${money(t.subtotal)}</strong></p>${voucher}${proceed}`,
    msg,
  );
}

function summary(t: Totals, withTax: boolean): string {
  const rows = [`<dt>Items</dt><dd>${money(t.subtotal)}</dd>`];
  if (t.discount) rows.push(`<dt>Coupon discount</dt><dd>-${money(t.discount)}</dd>`);
  rows.push(`<dt>Shipping</dt><dd>${t.shipping ? money(t.shipping) : 'FREE'}</dd>`);
  if (withTax) rows.push(`<dt>Tax</dt><dd>${money(t.tax)}</dd>`, `<dt>Order total</dt><dd>${money(t.total)}</dd>`);
  else rows.push(`<dt>Estimated total</dt><dd>${money(t.total - t.tax)}</dd>`);
  return `<h2>Order summary</h2><dl>${rows.join('')}</dl>`;
}

function shippingStep(db: ShopDb): SiteResponse {
  if (!db.cart.lines.length) return goTo('/cart');
  const t = totalsOf(db, db.cart.lines, db.cart.coupon);
  const body = `<p class="muted">Step 1 of 2: Shipping</p><h2>Ship to</h2><p>${esc(db.account.name)}<br>${esc(db.account.address)}</p>
<p>Delivery: Standard (3–5 business days)</p>${linesTable(db, db.cart.lines, false)}${summary(t, false)}
<div class="row"><form method="post" action="/checkout/place"><button type="submit">Place your order</button></form>
<form method="get" action="/checkout/payment"><button type="submit">Continue to payment</button></form></div>
<p class="muted">Place your order now to pay with your default card (Visa ending in 4242).</p>`;
  return shopPage('Checkout', body);
}

function paymentStep(db: ShopDb, msg: string | null): SiteResponse {
  if (!db.cart.lines.length) return goTo('/cart');
  const t = totalsOf(db, db.cart.lines, db.cart.coupon);
  const applied = db.cart.coupon ? `<p>Coupon ${esc(db.cart.coupon)} applied.</p>` : '';
  const body = `<p class="muted">Step 2 of 2: Payment</p><p>Pay with: Visa ending in 4242</p>
<form method="post" action="/checkout/coupon" class="row"><label for="coupon">Coupon code</label><input id="coupon" name="code"><button type="submit">Apply</button></form>${applied}
${summary(t, true)}<form method="post" action="/checkout/place"><button type="submit">Place your order</button></form>`;
  return shopPage('Checkout', body, msg);
}

function expressLines(db: ShopDb, request: SiteRequest): CartLine[] | undefined {
  const id = Number(request.query.get('p') ?? request.form.get('p'));
  const qty = Math.max(1, Math.min(5, Number(request.query.get('qty') ?? request.form.get('qty')) || 1));
  return db.products.some((p) => p.id === id) ? [{ productId: id, qty }] : undefined;
}

function expressPage(db: ShopDb, request: SiteRequest): SiteResponse {
  const lines = expressLines(db, request);
  if (!lines) return notFound('That product');
  const [line] = lines as [CartLine];
  const t = totalsOf(db, lines, null);
  const body = `<p class="muted">Buy now</p><h2>Ship to</h2><p>${esc(db.account.name)}<br>${esc(db.account.address)}</p><p>Pay with: Visa ending in 4242</p>
${linesTable(db, lines, false)}${summary(t, true)}
<form method="post" action="/checkout/express"><input type="hidden" name="p" value="${line.productId}"><input type="hidden" name="qty" value="${line.qty}"><button type="submit">Place your order</button></form>`;
  return shopPage('Buy now', body);
}

function placeOrder(db: ShopDb, lines: CartLine[], coupon: string | null, voucher: string | null): Order {
  const t = totalsOf(db, lines, coupon);
  const order: Order = {
    id: db.nextOrderId,
    lines: lines.map((l) => ({
      productId: l.productId,
      name: productName(db, l.productId),
      qty: l.qty,
      price: db.products.find((p) => p.id === l.productId)?.price ?? 0,
    })),
    ...t,
    coupon,
    voucher,
    placedOn: db.today,
  };
  db.orders.push(order);
  db.nextOrderId++;
  return order;
}

function ordersPage(db: ShopDb): SiteResponse {
  if (!db.orders.length) return shopPage('Your orders', '<p>You have not placed any orders yet.</p>');
  const rows = db.orders
    .map(
      (o) =>
        `<tr><td><a href="/orders/${o.id}">Order #${o.id}</a></td><td>${esc(o.placedOn)}</td><td>${money(o.total)}</td></tr>`,
    )
    .join('');
  return shopPage(
    'Your orders',
    `<table><thead><tr><th>Order</th><th>Placed</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function orderPage(db: ShopDb, order: Order): SiteResponse {
  const lines = order.lines.map((l) => ({ productId: l.productId, qty: l.qty }));
  const coupon = order.coupon ? `<p>Coupon: ${esc(order.coupon)}</p>` : '';
  return shopPage(
    `Order #${order.id}`,
    `<p>Thank you! Your order was placed on ${esc(order.placedOn)}.</p>${linesTable(db, lines, false)}${coupon}${summary(order, true)}`,
  );
}

const UNIT_OPTIONS: [string, string][] = [
  ['lb', 'US (lb)'],
  ['kg', 'Metric (kg)'],
  ['g', 'Metric (g)'],
];

function settingsPage(request: SiteRequest, msg: string | null): SiteResponse {
  const current = request.cookies.units ?? 'lb';
  const units = UNIT_OPTIONS.map(
    ([v, l]) => `<option value="${v}"${v === current ? ' selected' : ''}>${l}</option>`,
  ).join('');
  const body = `<form method="post" action="/settings"><div class="row"><label for="units">Units</label><select id="units" name="units">${units}</select></div>
<div class="row"><label for="lang">Language</label><select id="lang" name="lang"><option>English</option><option>Español</option></select></div>
<button type="submit">Save settings</button></form>`;
  return shopPage('Settings', body, msg);
}

function addToCart(db: ShopDb, request: SiteRequest): SiteResponse {
  const id = Number(request.form.get('product'));
  const qty = Math.max(1, Math.min(5, Number(request.form.get('qty')) || 1));
  if (!db.products.some((p) => p.id === id)) return notFound('That product');
  const line = db.cart.lines.find((l) => l.productId === id);
  if (line) line.qty = Math.min(9, line.qty + qty);
  else db.cart.lines.push({ productId: id, qty });
  return goTo('/cart', `Added ${productName(db, id)} to your cart.`);
}

function post(db: ShopDb, request: SiteRequest): SiteResponse | undefined {
  const f = request.form;
  switch (request.path) {
    case '/cart/add':
      return addToCart(db, request);
    case '/buy-now':
      return { redirect: `/checkout/express?p=${Number(f.get('product'))}&qty=${Number(f.get('qty')) || 1}` };
    case '/cart/remove':
      db.cart.lines = db.cart.lines.filter((l) => l.productId !== Number(f.get('product')));
      return goTo('/cart');
    case '/cart/voucher': {
      const code = (f.get('code') ?? '').trim().toUpperCase();
      db.cart.voucher = code || null;
      return goTo('/cart', code ? `Voucher ${code} saved; it is checked when you pay.` : undefined);
    }
    case '/checkout/coupon': {
      const code = (f.get('code') ?? '').trim().toUpperCase();
      if (!db.coupons.some((c) => c.code === code))
        return goTo('/checkout/payment', `Coupon ${code || '(empty)'} is not valid.`);
      db.cart.coupon = code;
      return goTo('/checkout/payment', `Coupon ${code} applied.`);
    }
    case '/checkout/place': {
      if (!db.cart.lines.length) return goTo('/cart');
      const order = placeOrder(db, db.cart.lines, db.cart.coupon, db.cart.voucher);
      db.cart = { lines: [], coupon: null, voucher: null };
      return goTo(`/orders/${order.id}`);
    }
    case '/checkout/express': {
      const lines = expressLines(db, request);
      if (!lines) return notFound('That product');
      return goTo(`/orders/${placeOrder(db, lines, null, null).id}`);
    }
    case '/settings': {
      const units = f.get('units');
      const value = units === 'kg' || units === 'g' ? units : 'lb';
      return { redirect: '/settings?msg=Settings%20saved.', setCookies: { units: value } };
    }
  }
  return undefined;
}

export function checkoutPage(db: ShopDb, request: SiteRequest): SiteResponse | undefined {
  if (request.method === 'POST') return post(db, request);
  const msg = request.query.get('msg');
  const { path } = request;
  if (path === '/cart') return cartPage(db, msg);
  if (path === '/checkout/shipping') return shippingStep(db);
  if (path === '/checkout/payment') return paymentStep(db, msg);
  if (path === '/checkout/express') return expressPage(db, request);
  if (path === '/orders') return ordersPage(db);
  if (path === '/settings') return settingsPage(request, msg);
  const order = path.match(/^\/orders\/(\d+)$/);
  if (order) {
    const found = db.orders.find((o) => o.id === Number(order[1]));
    return found ? orderPage(db, found) : notFound('That order');
  }
  return undefined;
}
