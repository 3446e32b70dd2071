import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random.ts';
import { closeBrowsers } from '../../../../envs/web/browser/browser.ts';
import { runOracle } from '../../../../envs/web/episode.ts';
import type { SiteRequest, WebInstance } from '../../../../envs/web/site.ts';
import type { HelpdeskDb } from '../../../../envs/web/sites/helpdesk/db.ts';
import { helpdeskSite } from '../../../../envs/web/sites/helpdesk/index.ts';

const SEED = 0;

function instance(templateId: string, i: number, db = helpdeskSite.createDb(SEED)): WebInstance<HelpdeskDb> {
  const t = helpdeskSite.templates.find((x) => x.id === templateId);
  if (!t) throw new Error(templateId);
  return t.generate(seededRandom('test', templateId, i), i, db);
}

function post(db: HelpdeskDb, path: string, form: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) body.append(k, x);
  const r: SiteRequest = { method: 'POST', path, query: new URLSearchParams(), form: body, cookies: {} };
  return helpdeskSite.handle(db, r);
}

const quoted = (s: string) => [...s.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);

describe('helpdesk site (handlers)', () => {
  it('builds the same database for a seed and another for another seed', () => {
    expect(JSON.stringify(helpdeskSite.createDb(7))).toBe(JSON.stringify(helpdeskSite.createDb(7)));
    expect(JSON.stringify(helpdeskSite.createDb(7))).not.toBe(JSON.stringify(helpdeskSite.createDb(8)));
  });

  it('makes 15 distinct instances per template (arguments and targets)', () => {
    for (const t of helpdeskSite.templates) {
      const all = Array.from({ length: 15 }, (_, i) => instance(t.id, i));
      expect(new Set(all.map((x) => x.instruction)).size, t.id).toBe(15);
      expect(new Set(all.map((x) => x.expected)).size, t.id).toBe(15);
    }
  });

  it('rejects wrong answers and untouched state', () => {
    for (const t of helpdeskSite.templates) {
      const before = helpdeskSite.createDb(SEED);
      const spec = instance(t.id, 3, before);
      expect(spec.check({ before, after: structuredClone(before), answer: 'Nobody 999' }).correct, t.id).toBe(false);
    }
  });

  it('create-ticket: the new record is checked, and an extra change fails the guard', () => {
    const before = helpdeskSite.createDb(SEED);
    const spec = instance('create-ticket', 4, before);
    const [title] = quoted(spec.instruction);
    const [, category, priority] = spec.instruction.match(/category (\w+) and priority (\w+)/) ?? [];
    const after = structuredClone(before);
    expect(post(after, '/tickets/new', { title: title as string, category: category as string, priority: priority as string })).toHaveProperty('html');
    expect(spec.check({ before, after, answer: 'done' }).correct).toBe(false);
    post(after, '/tickets/new', { title: (title as string).toLowerCase(), category: category as string, priority: priority as string, kb: '1' });
    expect(spec.check({ before, after, answer: 'done' })).toMatchObject({ correct: true });
    post(after, '/tickets/1/notes', { note: 'hello' });
    expect(spec.check({ before, after, answer: 'done' }).note).toMatch(/changed outside the task: tickets\.0\.notes/);
  });

  it('reassign-ticket: only the assignee may change', () => {
    const before = helpdeskSite.createDb(SEED);
    const spec = instance('reassign-ticket', 5, before);
    const number = spec.instruction.match(/ticket (INC\d+)/)?.[1];
    const [agent] = quoted(spec.instruction);
    const t = before.tickets.find((x) => x.number === number);
    if (!t) throw new Error('no ticket');
    const edit = { title: t.title, category: t.category, priority: t.priority, status: t.status, assignee: agent as string };
    const after = structuredClone(before);
    post(after, `/tickets/${t.id}/edit`, edit);
    expect(spec.check({ before, after, answer: 'done' })).toMatchObject({ correct: true });
    const noted = structuredClone(after);
    post(noted, `/tickets/${t.id}/notes`, { note: `Reassigned to ${agent}` });
    expect(spec.check({ before, after: noted, answer: 'done' }).correct).toBe(false);
    const other = t.status === 'Open' ? 'Pending' : 'Open';
    post(after, `/tickets/${t.id}/edit`, { ...edit, status: other });
    expect(spec.check({ before, after, answer: 'done' }).note).toMatch(/changed outside the task/);
  });

  it('close-requester-tickets: every ticket of the requester, and nobody else\'s', () => {
    const before = helpdeskSite.createDb(SEED);
    const spec = instance('close-requester-tickets', 6, before);
    const [name] = quoted(spec.instruction);
    const user = before.users.find((u) => u.name === name);
    if (!user) throw new Error('no user');
    const ids = before.tickets.filter((t) => t.requester === name).map((t) => String(t.id));
    const after = structuredClone(before);
    post(after, `/users/${user.id}/bulk`, { action: 'resolve', ids });
    expect(spec.check({ before, after, answer: 'done' }).correct).toBe(false);
    post(after, `/users/${user.id}/bulk`, { action: 'close', ids });
    expect(spec.check({ before, after, answer: 'done' })).toMatchObject({ correct: true });
    const other = before.users.find((u) => u.name !== name && before.tickets.some((t) => t.requester === u.name && t.status !== 'Closed'));
    if (!other) throw new Error('no other user');
    post(after, `/users/${other.id}/bulk`, { action: 'close', ids: before.tickets.filter((t) => t.requester === other.name).map((t) => String(t.id)) });
    expect(spec.check({ before, after, answer: 'done' }).note).toMatch(/changed outside the task/);
  });
});

describe('helpdesk oracles through the browser', { timeout: 120_000 }, () => {
  afterAll(() => closeBrowsers());
  for (const t of helpdeskSite.templates) {
    it(`${t.id}: the oracle solves instances 0 and 1 (other arguments, other answers)`, async () => {
      for (const i of [0, 1]) {
        const r = await runOracle(helpdeskSite, t.id, i);
        expect(r.correct, `${t.id}/${i}: ${r.note}\n${r.steps.join('\n')}`).toBe(true);
      }
    });
  }
});
