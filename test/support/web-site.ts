// A small site for the web harness's tests: a search, a disclosure, item pages with a form, a page that asks for
// outside resources, a page covered by a modal, and a cookie the next episode must not see.
import { exactAnswer, stateCheck } from '../../envs/web/check.ts';
import { esc, page } from '../../envs/web/html.ts';
import type { WebSite } from '../../envs/web/site.ts';

export type TinyDb = { items: { id: number; name: string; price: number }[]; notes: string[]; visits: number };

const html = (title: string, body: string) => ({ html: page({ site: 'Tiny', title, body, nav: [['Home', '/']] }) });

export const tinySite: WebSite<TinyDb> = {
  name: 'tiny',
  title: 'Tiny',
  description: 'A test site.',
  createDb: () => ({
    items: [
      { id: 1, name: 'Kettle', price: 12.5 },
      { id: 2, name: 'Toaster', price: 30 },
    ],
    notes: [],
    visits: 0,
  }),
  handle(db, req) {
    if (req.path === '/') {
      const seen = req.cookies.seen ? `<p>Welcome back</p>` : '<p>First visit</p>';
      const items = db.items.map((i) => `<li><a href="/item/${i.id}">${esc(i.name)}</a></li>`).join('');
      return {
        ...html(
          'Home',
          `${seen}<form action="/search"><label>Search <input name="q"></label><button>Go</button></form><details><summary>Refine ▸</summary><a href="/sorted">Sort by price</a></details><ul>${items}</ul>`,
        ),
        setCookies: { seen: '1' },
      };
    }
    if (req.path === '/search') {
      const q = (req.query.get('q') ?? '').toLowerCase();
      return html(
        'Results',
        db.items
          .filter((i) => i.name.toLowerCase().includes(q))
          .map((i) => `<a href="/item/${i.id}">${esc(i.name)}</a>`)
          .join(' '),
      );
    }
    if (req.path === '/outside')
      return html(
        'Outside',
        '<img alt="remote" src="http://example.com/logo.png"><script src="https://cdn.example.org/x.js"></script>',
      );
    if (req.path === '/covered')
      return html(
        'Covered',
        '<button>Behind</button><div class="modal"><div><button>Accept cookies</button></div></div>',
      );
    const m = req.path.match(/^\/item\/(\d+)$/);
    if (m) {
      const it = db.items.find((i) => i.id === Number(m[1]));
      if (!it) return {};
      return html(
        it.name,
        `<dl><dt>Price</dt><dd>$${it.price}</dd></dl><form method="post" action="/note"><label>Note <input name="n"></label><button>Save note</button></form>`,
      );
    }
    if (req.path === '/note' && req.method === 'POST') {
      db.notes.push(req.form.get('n') ?? '');
      return { redirect: '/' };
    }
    if (req.path === '/boom') throw new Error('handler exploded');
    return {};
  },
  templates: [
    {
      id: 'price',
      quirk: 'none',
      generate: (_r, i, db) => {
        const it = db.items[i % 2] as TinyDb['items'][number];
        return {
          instruction: `On Tiny, what is the price of ${it.name}?`,
          start: '/',
          check: ({ answer }) => exactAnswer(`$${it.price}`, answer),
          oracle: [`Type textbox "Search"; ${it.name}`, `Click link "${it.name}"`, `ANSWER; $${it.price}`],
          expected: `$${it.price}`,
        };
      },
    },
    {
      id: 'note',
      quirk: 'none',
      generate: (_r, i, db) => {
        const it = db.items[i % 2] as TinyDb['items'][number];
        return {
          instruction: `On Tiny, leave the note hello on ${it.name}.`,
          start: '/',
          check: ({ before, after }) =>
            stateCheck(before, after, [{ what: 'note saved', holds: after.notes.includes('hello') }], ['notes']),
          oracle: [`Click link "${it.name}"`, 'Type textbox "Note"; hello', 'ANSWER; done'],
          expected: 'note saved',
        };
      },
    },
  ],
};
