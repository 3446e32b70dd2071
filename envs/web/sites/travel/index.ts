// TravelDesk: flights and hotels booking. Flight search by origin, destination and date; hotel search by city with
// rates and a total; the traveller's bookings with a two-step cancellation.
import { page } from '../../html.ts';
import type { SiteRequest, SiteResponse, WebSite } from '../../site.ts';
import { bookingPage, bookingsPage, cancelBooking, cancelPage } from './bookings.ts';
import { createDb, type TravelDb } from './db.ts';
import { flightsPage } from './flights.ts';
import { bookHotel, hotelListPage, hotelPage } from './hotels.ts';
import { TEMPLATES } from './templates.ts';

const TITLE = 'TravelDesk';
const NAV: [string, string][] = [
  ['Flights', '/'],
  ['Hotels', '/hotels'],
  ['My bookings', '/bookings'],
];

const show = (title: string, body: string): SiteResponse => ({ html: page({ site: TITLE, title, nav: NAV, body }) });
const notFound = (what: string): SiteResponse => ({
  status: 404,
  html: page({ site: TITLE, title: 'Not found', nav: NAV, body: `<p>${what} not found.</p>` }),
});

function route(db: TravelDb, req: SiteRequest): SiteResponse {
  const parts = req.path.split('/').filter(Boolean);
  const [section, id, action] = parts;
  if (req.method === 'GET' && (req.path === '/' || req.path === '/flights'))
    return show(req.path === '/' ? 'Search flights' : 'Flights', flightsPage(db, req));
  if (section === 'hotels') {
    if (!id) return show('Hotels', hotelListPage(db, req));
    const hotel = db.hotels.find((h) => String(h.id) === id);
    if (!hotel) return notFound('Hotel');
    if (req.method === 'POST' && action === 'book') return bookHotel(db, hotel, req);
    if (!action) return show(hotel.name, hotelPage(db, hotel, req));
  }
  if (section === 'bookings') {
    if (!id) return show('My bookings', bookingsPage(db, req));
    const booking = db.bookings.find((b) => b.ref.toLowerCase() === id.toLowerCase());
    if (!booking) return notFound('Booking');
    if (!action) return show(`Booking ${booking.ref}`, bookingPage(booking, req));
    if (action === 'cancel') {
      if (req.method === 'GET') return show(`Cancel booking ${booking.ref}`, cancelPage(booking));
      const result = cancelBooking(booking, req);
      return typeof result === 'string' ? show(`Cancel booking ${booking.ref}`, result) : result;
    }
  }
  return notFound('Page');
}

export const travelSite: WebSite<TravelDb> = {
  name: 'travel',
  title: TITLE,
  description:
    'TravelDesk, a flights and hotels booking site: flight search by origin, destination and DD/MM/YYYY date (flexible dates ±3 days on by default, sorting under "Sort & filters"), hotel search by city with rates, a nights selector and the stay total, and My bookings with a two-step cancellation.',
  createDb,
  handle: route,
  templates: TEMPLATES,
};
