// HelpDesk's five task templates. Each has one learnable quirk; arguments the procedure types or clicks appear
// verbatim in the instruction. Instances take their records from per-template orderings seeded by the database's
// seed, so the 15 instances of a template use 15 different records.
import { seededRandom } from '../../../../engine/random.ts';
import { exactAnswer, numberAnswer, stateCheck } from '../../check.ts';
import type { WebTemplate } from '../../site.ts';
import { CATEGORIES, COUNTED_STATUSES, type HelpdeskDb, PRIORITIES, type Ticket } from './db.ts';
import { sameText } from './layout.ts';

const NEW_TITLES = [
  'Scanner skips pages',
  'Laptop fan is loud',
  'Teams audio echoes',
  'Cannot print labels',
  'Shared drive is read only',
  'Second screen goes dark',
  'Calendar shows wrong timezone',
  'Phone app will not sync',
  'Login page is blank',
  'Mouse pointer jumps',
  'Upload fails at 99 percent',
  'Projector needs a cable',
  'Chat messages arrive late',
  'Report export is empty',
  'Password reset link expired',
  'Fonts missing in slides',
];

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Item `instance` of a per-template ordering of `items` (distinct items for distinct instances). */
function nth<T>(db: HelpdeskDb, template: string, items: readonly T[], instance: number): T {
  const order = shuffled(items, seededRandom('helpdesk', template, db.seed));
  return order[instance % order.length] as T;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;
const indexOf = (db: HelpdeskDb, t: Ticket) => db.tickets.findIndex((x) => x.id === t.id);

const createTicket: WebTemplate<HelpdeskDb> = {
  id: 'create-ticket',
  quirk: 'Category is not on the visible "Details" tab of the new-ticket form but on its "Classification" tab.',
  generate(random, instance, db) {
    const title = nth(db, 'create', NEW_TITLES, instance);
    const category = pick(CATEGORIES, random);
    const priority = pick(['Critical', 'High', 'Low'], random);
    const n = db.tickets.length;
    return {
      instruction: `On HelpDesk, create a ticket titled "${title}" with category ${category} and priority ${priority}.`,
      start: '/',
      oracle: [
        'Click link "New ticket"',
        'Click checkbox "I checked the knowledge base"',
        `Select combobox "Priority"; ${priority}`,
        'Click tab "Classification"',
        `Select combobox "Category"; ${category}`,
        'Click tab "Details"',
        `Type textbox "Title"; ${title}`,
        'ANSWER; done',
      ],
      expected: `one new ticket "${title}", category ${category}, priority ${priority}, status New`,
      check({ before, after }) {
        const t = after.tickets[n];
        return stateCheck(
          before,
          after,
          [
            { what: 'one new ticket', holds: after.tickets.length === n + 1 },
            { what: `title "${title}"`, holds: !!t && sameText(t.title, title) },
            { what: `category ${category}`, holds: t?.category === category },
            { what: `priority ${priority}`, holds: t?.priority === priority },
          ],
          [`tickets.${n}`],
        );
      },
    };
  },
};

const reassignTicket: WebTemplate<HelpdeskDb> = {
  id: 'reassign-ticket',
  quirk:
    'The ticket page is read-only: the assignee changes only in the edit form, reached by "More actions" → "Edit record".',
  generate(random, instance, db) {
    const open = db.tickets.filter((t) => t.status !== 'Closed' && t.assignee);
    const ticket = nth(db, 'reassign', open, instance);
    const agent = pick(
      db.agents.filter((a) => a.name !== ticket.assignee && a.name !== db.me),
      random,
    ).name;
    const i = indexOf(db, ticket);
    return {
      instruction: `On HelpDesk, reassign ticket ${ticket.number} to "${agent}" and change nothing else.`,
      start: '/',
      oracle: [
        `Type textbox "Search tickets"; ${ticket.number}`,
        'Click generic "More actions"',
        'Click link "Edit record"',
        `Select combobox "Assigned to"; ${agent}`,
        'Click button "Save"',
        'ANSWER; done',
      ],
      expected: `ticket ${ticket.number} assigned to ${agent}, nothing else changed`,
      check: ({ before, after }) =>
        stateCheck(
          before,
          after,
          [{ what: `${ticket.number} assigned to ${agent}`, holds: after.tickets[i]?.assignee === agent }],
          [`tickets.${i}.assignee`],
        ),
    };
  },
};

const countTickets: WebTemplate<HelpdeskDb> = {
  id: 'count-tickets',
  quirk:
    'The list is paginated and shows no total; the match count appears only after setting both filters in the "Filter" panel and pressing "Apply".',
  generate(_random, instance, db) {
    const groups = COUNTED_STATUSES.flatMap((status) =>
      PRIORITIES.map((priority) => ({
        status,
        priority,
        count: db.tickets.filter((t) => t.status === status && t.priority === priority).length,
      })),
    );
    // The smallest group (one ticket) is left out: on a first page it is too easy to count by eye.
    const { status, priority, count } = nth(
      db,
      'count',
      groups.filter((g) => g.count >= 2),
      instance,
    );
    return {
      instruction: `On HelpDesk, how many tickets have status ${status} and priority ${priority}?`,
      start: '/',
      oracle: [
        'Click link "Tickets"',
        'Click generic "Filter"',
        `Select combobox "Status"; ${status}`,
        `Select combobox "Priority"; ${priority}`,
        'Click button "Apply"',
        `ANSWER; ${count}`,
      ],
      expected: `answer ${count}`,
      check: ({ answer }) => numberAnswer(count, answer),
    };
  },
};

const closeTickets: WebTemplate<HelpdeskDb> = {
  id: 'close-requester-tickets',
  quirk:
    'Bulk close asks for confirmation in a dialog whose "Close" button only dismisses it; "Continue" closes the tickets.',
  generate(_random, instance, db) {
    const candidates = db.users.filter(
      (u) => db.tickets.filter((t) => t.requester === u.name && t.status !== 'Closed').length >= 2,
    );
    const user = nth(db, 'close', candidates, instance);
    const theirs = db.tickets.map((t, i) => ({ t, i })).filter(({ t }) => t.requester === user.name);
    return {
      instruction: `On HelpDesk, close every ticket requested by "${user.name}".`,
      start: '/',
      oracle: [
        'Click link "Users"',
        `Click link "${user.name}"`,
        'Click checkbox "Select all"',
        'Click button "Close selected"',
        'Click button "Continue"',
        'ANSWER; done',
      ],
      expected: `all ${theirs.length} tickets of ${user.name} Closed, nothing else changed`,
      check: ({ before, after }) =>
        stateCheck(
          before,
          after,
          [
            {
              what: `every ticket of ${user.name} closed`,
              holds: theirs.every(({ i }) => after.tickets[i]?.status === 'Closed'),
            },
          ],
          theirs.map(({ i }) => `tickets.${i}.status`),
        ),
    };
  },
};

const lastEditor: WebTemplate<HelpdeskDb> = {
  id: 'kb-last-editor',
  quirk: 'The article shows its author and reviewer; the last editor is only on the "History" tab.',
  generate(_random, instance, db) {
    // The first 16 articles have 16 different last editors.
    const article = nth(db, 'kb', db.articles.slice(0, 16), instance);
    const editor = article.history[article.history.length - 1]?.editor ?? '';
    return {
      instruction: `On HelpDesk, who last edited the knowledge article "${article.title}"?`,
      start: '/',
      oracle: ['Click link "Knowledge"', `Click link "${article.title}"`, 'Click tab "History"', `ANSWER; ${editor}`],
      expected: `answer ${editor}`,
      check: ({ answer }) => exactAnswer(editor, answer),
    };
  },
};

export const TEMPLATES: WebTemplate<HelpdeskDb>[] = [
  createTicket,
  reassignTicket,
  countTickets,
  closeTickets,
  lastEditor,
];
