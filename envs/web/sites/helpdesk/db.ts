// HelpDesk's seeded database: agents, requesters (users), incident tickets and knowledge articles, as plain JSON.
// Some distributions are built on purpose so that sibling tasks have distinct answers: the 16 (status, priority)
// groups of open-ish tickets have 16 different sizes, and the first 16 articles have 16 different last editors.
import { seededRandom } from '../../../../engine/random.ts';
import type { SiteDb } from '../../site.ts';

export const CATEGORIES = ['Hardware', 'Software', 'Network', 'Access', 'Email', 'Database'] as const;
export const PRIORITIES = ['Critical', 'High', 'Moderate', 'Low'] as const;
/** Statuses the count template asks about; "Closed" tickets exist too. */
export const COUNTED_STATUSES = ['New', 'Open', 'Pending', 'Resolved'] as const;
export const STATUSES = [...COUNTED_STATUSES, 'Closed'] as const;
/** A new ticket's category until someone classifies it. */
export const UNCLASSIFIED = 'Inquiry';

export interface Agent {
  id: number;
  name: string;
  group: string;
}

export interface User {
  id: number;
  name: string;
  department: string;
}

export interface Ticket {
  id: number;
  number: string;
  title: string;
  category: string;
  priority: string;
  status: string;
  /** Agent name, or "" when unassigned. */
  assignee: string;
  /** User name. */
  requester: string;
  opened: string;
  notes: string[];
}

export interface Edit {
  version: number;
  editor: string;
  date: string;
  change: string;
}

export interface Article {
  id: number;
  number: string;
  title: string;
  category: string;
  author: string;
  reviewer: string;
  body: string[];
  /** Oldest first; the last entry is the last edit. */
  history: Edit[];
  feedback: { by: string; text: string }[];
}

export interface HelpdeskDb extends SiteDb {
  /** Seeds the generators' per-template orderings. */
  seed: number;
  /** The signed-in agent. */
  me: string;
  agents: Agent[];
  users: User[];
  tickets: Ticket[];
  articles: Article[];
}

const FIRST = [
  'Maria',
  'Ana',
  'Omar',
  'Lena',
  'Ravi',
  'Chloe',
  'Tomas',
  'Ines',
  'Kofi',
  'Yuki',
  'Elias',
  'Nora',
  'Pablo',
  'Greta',
  'Hugo',
  'Amira',
  'Felix',
  'Sofia',
  'Jonas',
  'Leila',
  'Marco',
  'Priya',
  'Viktor',
  'Hana',
  'Dmitri',
  'Zara',
  'Oscar',
  'Mei',
  'Rafael',
  'Alma',
  'Bruno',
  'Clara',
  'Dario',
  'Edith',
  'Fatima',
  'Gustav',
  'Helga',
  'Ivan',
  'Julia',
  'Karim',
];
const LAST = [
  'Lopez',
  'Whitfield',
  'Okafor',
  'Brandt',
  'Sato',
  'Moreau',
  'Novak',
  'Haddad',
  'Larsen',
  'Mensah',
  'Romero',
  'Fischer',
  'Kowalski',
  'Duarte',
  'Ibrahim',
  'Lindqvist',
  'Petrov',
  'Silva',
  'Tanaka',
  'Varga',
  'Weber',
  'Young',
  'Zhou',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fontaine',
  'Greco',
  'Hoffmann',
  'Jansen',
];
export const GROUPS = ['Service Desk', 'Infrastructure', 'Identity Team', 'Platform Team'];
const DEPARTMENTS = ['Finance', 'Sales', 'Marketing', 'Legal', 'Operations', 'Research', 'Facilities', 'HR'];

const ISSUES: Record<string, string[]> = {
  Hardware: [
    'Laptop will not boot',
    'Docking station flickers',
    'Printer jams on tray two',
    'Monitor shows no signal',
    'Keyboard keys stick',
    'Battery drains overnight',
    'Headset crackles in calls',
    'Webcam not detected',
  ],
  Software: [
    'Office add-in crashes',
    'Spreadsheet macro blocked',
    'Update stuck at 40 percent',
    'PDF viewer freezes',
    'License expired warning',
    'App crashes on launch',
    'Browser extension missing',
    'Installer needs approval',
  ],
  Network: [
    'VPN drops every hour',
    'Wifi slow in room B12',
    'Cannot reach file share',
    'DNS lookups time out',
    'Guest network refuses login',
    'Proxy blocks supplier site',
    'Packet loss on video calls',
    'Ethernet port dead',
  ],
  Access: [
    'Account locked after reset',
    'Need access to finance folder',
    'MFA prompt never arrives',
    'Badge does not open door',
    'Password expired abroad',
    'Shared mailbox permission',
    'Role missing in HR portal',
    'SSO loop on login',
  ],
  Email: [
    'Mail stuck in outbox',
    'Calendar invites duplicated',
    'Spam filter eats invoices',
    'Mailbox almost full',
    'Signature not saved',
    'Distribution list bounces',
    'Out of office not sent',
    'Attachments blocked',
  ],
  Database: [
    'Report query times out',
    'Nightly job failed',
    'Replica lag too high',
    'Deadlock in order table',
    'Backup size doubled',
    'Index rebuild needed',
    'Connection pool exhausted',
    'Schema change request',
  ],
};

const ARTICLES = [
  'Reset your VPN token',
  'Set up MFA on a new phone',
  'Map a network drive',
  'Request a software license',
  'Clear the print queue',
  'Recover a deleted email',
  'Share a calendar',
  'Connect to guest wifi',
  'Unlock your account',
  'Install the docking driver',
  'Archive an old mailbox',
  'Request database access',
  'Join a distribution list',
  'Fix a frozen laptop',
  'Encrypt a USB drive',
  'Change your display name',
  'Book a meeting room screen',
  'Renew a code signing key',
  'Move files to the archive',
  'Report a phishing email',
];

const CHANGES = [
  'Fixed typos',
  'Updated screenshots',
  'Added a troubleshooting step',
  'Clarified prerequisites',
  'Reworded the summary',
  'Updated links',
  'Added a warning',
];

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const pickOf = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;

/** ISO date `daysAgo` days before a fixed day (no clock: the database must not depend on when it is built). */
function dayIso(daysAgo: number): string {
  return new Date(Date.UTC(2024, 5, 30) - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** 16 agents and 24 users with distinct names (no name is both). */
function people(random: () => number): { agents: Agent[]; users: User[] } {
  const names = shuffle(FIRST, random)
    .slice(0, 40)
    .map((f, i) => `${f} ${LAST[(i * 7 + Math.floor(random() * 3)) % LAST.length]}`);
  const unique = [...new Set(names)];
  const agents = unique
    .slice(0, 16)
    .map((name, i) => ({ id: i + 1, name, group: GROUPS[i % GROUPS.length] as string }));
  const users = unique.slice(16, 40).map((name, i) => ({ id: i + 1, name, department: pickOf(DEPARTMENTS, random) }));
  return { agents, users };
}

function tickets(random: () => number, agents: Agent[], users: User[]): Ticket[] {
  // One size per (status, priority) group, all different: 1..16.
  const sizes = shuffle(
    Array.from({ length: 16 }, (_, i) => i + 1),
    random,
  );
  const plan: [string, string][] = [];
  COUNTED_STATUSES.forEach((s, si) =>
    PRIORITIES.forEach((p, pi) => {
      for (let k = 0; k < (sizes[si * 4 + pi] as number); k++) plan.push([s, p]);
    }),
  );
  for (let k = 0; k < 14; k++) plan.push(['Closed', pickOf(PRIORITIES, random)]);
  return shuffle(plan, random).map(([status, priority], i) => {
    const category = pickOf(CATEGORIES, random);
    const assignee = status === 'New' && random() < 0.5 ? '' : pickOf(agents, random).name;
    return {
      id: i + 1,
      number: `INC00${10001 + i}`,
      title: pickOf(ISSUES[category] as string[], random),
      category,
      priority,
      status,
      assignee,
      requester: pickOf(users, random).name,
      opened: dayIso(200 - i),
      notes: [],
    };
  });
}

function articles(random: () => number, agents: Agent[], users: User[]): Article[] {
  const names = agents.map((a) => a.name);
  const lastEditors = shuffle(names, random);
  return ARTICLES.map((title, i) => {
    const last = i < 16 ? (lastEditors[i] as string) : pickOf(names, random);
    const others = shuffle(
      names.filter((n) => n !== last),
      random,
    );
    const [author, reviewer] = others as [string, string];
    const middle = Math.floor(random() * 3);
    const editors = [author, ...others.slice(2, 2 + middle), last];
    const start = 400 - i * 9;
    return {
      id: i + 1,
      number: `KB00${1001 + i}`,
      title,
      category: pickOf(CATEGORIES, random),
      author,
      reviewer,
      body: [
        `This article explains how to ${title.toLowerCase()}.`,
        'Follow the steps in order and contact the Service Desk if a step fails.',
      ],
      history: editors.map((editor, v) => ({
        version: v + 1,
        editor,
        date: dayIso(start - v * 30),
        change: v === 0 ? 'Created' : pickOf(CHANGES, random),
      })),
      feedback: shuffle(users, random)
        .slice(0, 1 + Math.floor(random() * 2))
        .map((u) => ({
          by: u.name,
          text: pickOf(
            ['Helpful, thanks.', 'Step 2 was unclear.', 'Worked for me.', 'Please add screenshots.'],
            random,
          ),
        })),
    };
  });
}

export function createDb(seed: number): HelpdeskDb {
  const random = seededRandom('helpdesk', seed);
  const { agents, users } = people(random);
  return {
    seed,
    me: (agents[0] as Agent).name,
    agents,
    users,
    tickets: tickets(random, agents, users),
    articles: articles(random, agents, users),
  };
}
