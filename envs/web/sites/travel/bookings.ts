// My bookings: the list, one booking's page, and cancellation in two steps — "Cancel booking" only opens the
// confirmation page, which takes "I accept the cancellation terms" and "Confirm cancellation".
import { esc } from '../../html.ts';
import type { SiteRequest, SiteResponse } from '../../site.ts';
import type { Booking, TravelDb } from './db.ts';
import { euros, toDmy } from './format.ts';

export const ACCEPT_LABEL = 'I accept the cancellation terms';

const statusLabel = (b: Booking) => (b.status === 'confirmed' ? 'Confirmed' : 'Cancelled');
const what = (b: Booking) =>
  b.kind === 'hotel' ? `${b.title} · ${b.nights} night${b.nights > 1 ? 's' : ''}` : b.title;

export function bookingsPage(db: TravelDb, req: SiteRequest): string {
  const cancelled = req.query.get('cancelled');
  const notice = cancelled ? `<p role="status">Booking ${esc(cancelled)} has been cancelled.</p>` : '';
  const rows = db.bookings
    .map(
      (b) =>
        `<tr><td>${esc(b.ref)}</td><td>${esc(what(b))}</td><td>${esc(toDmy(b.date))}</td><td>${statusLabel(b)}</td><td><a href="/bookings/${esc(b.ref)}" aria-label="Manage ${esc(b.ref)}">Manage</a></td></tr>`,
    )
    .join('');
  return `${notice}<table><thead><tr><th>Reference</th><th>Booking</th><th>Date</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Refund after the fee: flexible hotel rates are refunded in full, everything else keeps a fee. */
export function refundOf(b: Booking): { fee: number; refund: number } {
  const fee = b.rate === 'flexible' ? 0 : Math.round(b.total * 0.3 * 100) / 100;
  return { fee, refund: Math.round((b.total - fee) * 100) / 100 };
}

export function bookingPage(b: Booking, req: SiteRequest): string {
  const fresh =
    req.query.get('new') === '1' ? '<p role="status">Booking confirmed. A confirmation email is on its way.</p>' : '';
  const rate =
    b.kind === 'hotel'
      ? `<dt>Rate</dt><dd>${b.rate === 'flexible' ? 'Flexible (free cancellation)' : 'Standard (non-refundable)'}</dd>`
      : '';
  const action =
    b.status === 'confirmed'
      ? `<form method="get" action="/bookings/${esc(b.ref)}/cancel"><button type="submit">Cancel booking</button></form>`
      : '<p class="muted">This booking is cancelled.</p>';
  return `${fresh}<dl><dt>Reference</dt><dd>${esc(b.ref)}</dd><dt>Booking</dt><dd>${esc(what(b))}</dd><dt>Date</dt><dd>${esc(toDmy(b.date))}</dd>${rate}<dt>Total paid</dt><dd>${euros(b.total)}</dd><dt>Status</dt><dd>${statusLabel(b)}</dd></dl>${action}<p><a href="/bookings">Back to my bookings</a></p>`;
}

export function cancelPage(b: Booking, error = ''): string {
  if (b.status !== 'confirmed')
    return '<p>This booking is already cancelled.</p><p><a href="/bookings">Back to my bookings</a></p>';
  const { fee, refund } = refundOf(b);
  return `<p>You are about to cancel <strong>${esc(what(b))}</strong> (${esc(b.ref)}).</p>
<p>Cancellation fee: ${euros(fee)} · Refund: ${euros(refund)}</p>${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/bookings/${esc(b.ref)}/cancel" class="card">
<label><input type="checkbox" name="accept" value="1"> ${esc(ACCEPT_LABEL)}</label>
<p><button type="submit">Confirm cancellation</button> <a href="/bookings/${esc(b.ref)}">Keep booking</a></p></form>`;
}

export function cancelBooking(b: Booking, req: SiteRequest): SiteResponse | string {
  if (b.status !== 'confirmed') return { redirect: `/bookings/${b.ref}` };
  if (req.form.get('accept') !== '1') return cancelPage(b, `Tick "${ACCEPT_LABEL}" to cancel this booking.`);
  b.status = 'cancelled';
  return { redirect: `/bookings?cancelled=${b.ref}` };
}
