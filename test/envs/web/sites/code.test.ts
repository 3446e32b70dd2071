import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random.ts';
import { closeBrowsers } from '../../../../envs/web/browser/browser.ts';
import { runOracle } from '../../../../envs/web/episode.ts';
import type { SiteRequest } from '../../../../envs/web/site.ts';
import { latestRelease, reposInTopic, type CodeDb } from '../../../../envs/web/sites/code/db.ts';
import { codeSite } from '../../../../envs/web/sites/code/index.ts';

const instance = (templateId: string, i: number, seed = 0) => {
  const t = codeSite.templates.find((x) => x.id === templateId);
  if (!t) throw new Error(templateId);
  return t.generate(seededRandom('test', templateId, i), i, codeSite.createDb(seed));
};
const request = (method: 'GET' | 'POST', path: string, query = '', form = ''): SiteRequest => ({
  method,
  path,
  query: new URLSearchParams(query),
  form: new URLSearchParams(form),
  cookies: {},
});
const get = (db: CodeDb, path: string, query = '') => codeSite.handle(db, request('GET', path, query)).html ?? '';
const post = (db: CodeDb, path: string, form = '') => codeSite.handle(db, request('POST', path, '', form));
const answerOf = (oracle: string[]) => (oracle.at(-1) as string).replace('ANSWER; ', '');

describe('code site (handlers)', () => {
  it('builds the same plain-JSON database for a seed, a different one for another seed', () => {
    expect(codeSite.createDb(3)).toEqual(codeSite.createDb(3));
    expect(codeSite.createDb(3)).not.toEqual(codeSite.createDb(4));
    const db = codeSite.createDb(3);
    expect(JSON.parse(JSON.stringify(db))).toEqual(db);
    expect(new Set(db.repos.map((r) => r.full)).size).toBe(db.repos.length);
  });

  it('shapes the quirks: top repository of a topic is on page 2 by default; rc tags are newer than the latest release', () => {
    for (const seed of [0, 1, 5]) {
      const db = codeSite.createDb(seed);
      for (const topic of db.topics) {
        const top = [...reposInTopic(db, topic)].sort((a, b) => b.stars - a.stars)[0];
        expect(reposInTopic(db, topic).length).toBeGreaterThan(10);
        expect(get(db, `/topics/${topic}`)).not.toContain(`>${top?.full}<`);
        expect(get(db, `/topics/${topic}`, 'sort=stars')).toContain(`>${top?.full}<`);
      }
      const rc = db.repos.find((r) => r.releases.at(-1)?.prerelease) as CodeDb['repos'][number];
      const page = get(db, `/${rc.full}/releases`);
      expect(page.indexOf(`<h2>${latestRelease(rc)?.tag}</h2>`)).toBeLessThan(page.indexOf(`<h2>${rc.tags[0]}</h2>`));
      expect(get(db, `/${rc.full}`)).toContain(`Newest tag: ${rc.tags[0]}`);
    }
  });

  it('renders its pages and answers 404 for unknown paths', () => {
    const db = codeSite.createDb(0);
    const repo = db.repos[0] as CodeDb['repos'][number];
    const issue = db.issues.find((x) => x.repo === repo.full);
    const pull = db.pulls.find((x) => x.repo === repo.full);
    const paths = [
      '/',
      '/topics',
      '/topics/cli',
      `/${repo.full}`,
      `/${repo.full}/issues`,
      `/${repo.full}/labels`,
      `/${repo.full}/issues/new`,
      `/${repo.full}/pulls`,
      `/${repo.full}/releases`,
      `/${repo.full}/tags`,
    ];
    for (const path of [...paths, `/${repo.full}/issues/${issue?.number}`, `/${repo.full}/pulls/${pull?.number}`])
      expect(get(db, path)).toContain('CodeHub');
    expect(get(db, '/search', `q=${repo.full}`)).toContain(`>${repo.full}<`);
    expect(codeSite.handle(db, request('GET', '/nobody/nothing')).status).toBe(404);
    expect(codeSite.handle(db, request('GET', '/topics/nope')).status).toBe(404);
  });

  it('opens an issue without labels; labels take effect only through "Apply labels"', () => {
    const db = codeSite.createDb(0);
    const repo = db.repos[2] as CodeDb['repos'][number];
    const n = db.issues.length;
    expect(post(db, `/${repo.full}/issues`, 'title=').html).toContain('A title is required');
    const made = post(db, `/${repo.full}/issues`, 'title=Crash+on+empty+input&body=x');
    const issue = db.issues[n] as CodeDb['issues'][number];
    expect(made.redirect).toBe(`/${repo.full}/issues/${issue.number}`);
    expect(issue).toMatchObject({ repo: repo.full, title: 'Crash on empty input', labels: [], state: 'open' });
    expect(get(db, `/${repo.full}/issues/${issue.number}`)).toContain('Apply labels');
    post(db, `/${repo.full}/issues/${issue.number}/labels`, 'label=bug&label=nonsense');
    expect(issue.labels).toEqual(['bug']);
    post(db, `/${repo.full}/issues/${issue.number}/state`);
    expect(issue.state).toBe('closed');
  });

  for (const t of codeSite.templates) {
    it(`${t.id}: 15 distinct instances with distinct arguments and outcomes, for several seeds`, () => {
      for (const seed of [0, 1, 2, 7]) {
        const all = Array.from({ length: 15 }, (_, i) => instance(t.id, i, seed));
        expect(new Set(all.map((x) => x.instruction)).size).toBe(15);
        expect(new Set(all.map((x) => x.expected)).size).toBe(15);
        expect(new Set(all.map((x) => answerOf(x.oracle))).size).toBe(t.id === 'open-labelled-issue' ? 1 : 15);
        for (const x of all) expect(x.instruction).toMatch(/^On CodeHub, /);
      }
    });
  }

  it('answer checkers accept the oracle answer and reject wrong or missing answers', () => {
    const db = codeSite.createDb(0);
    for (const t of codeSite.templates.filter((x) => x.id !== 'open-labelled-issue')) {
      for (const i of [0, 5]) {
        const x = instance(t.id, i);
        expect(x.check({ before: db, after: db, answer: answerOf(x.oracle) }).correct).toBe(true);
        expect(x.check({ before: db, after: db, answer: 'v9.9.9 nobody 999' }).correct).toBe(false);
        expect(x.check({ before: db, after: db, answer: undefined }).correct).toBe(false);
      }
    }
    const tag = instance('latest-release-tag', 3);
    const repo = tag.instruction.match(/"([^"]+)"/)?.[1] as string;
    expect(tag.check({ before: db, after: db, answer: db.repos.find((r) => r.full === repo)?.tags[0] }).correct).toBe(
      false,
    );
  });

  it('open-labelled-issue: the state check wants the title and the one label, and nothing else changed', () => {
    const x = instance('open-labelled-issue', 4);
    const [title, repo, label] = [...x.instruction.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
    const before = codeSite.createDb(0);
    const run = (extra: (db: CodeDb) => void, labels: string) => {
      const after = structuredClone(before);
      post(after, `/${repo}/issues`, new URLSearchParams({ title: (title as string).toLowerCase() }).toString());
      const made = after.issues.at(-1) as CodeDb['issues'][number];
      if (labels) post(after, `/${repo}/issues/${made.number}/labels`, labels);
      extra(after);
      return x.check({ before, after, answer: 'done' });
    };
    expect(run(() => {}, new URLSearchParams({ label: label as string }).toString()).correct).toBe(true);
    expect(run(() => {}, '').correct).toBe(false);
    expect(
      run(
        () => {},
        new URLSearchParams([
          ['label', label as string],
          ['label', label === 'bug' ? 'question' : 'bug'],
        ]).toString(),
      ).correct,
    ).toBe(false);
    const starred = run(
      (db) => post(db, `/${db.repos[0]?.full}/star`),
      new URLSearchParams({ label: label as string }).toString(),
    );
    expect(starred).toMatchObject({ correct: false });
    expect(starred.note).toMatch(/changed outside the task: repos\.0/);
    expect(x.check({ before, after: before, answer: 'done' }).correct).toBe(false);
  });
});

describe('code site (oracles through the browser)', { timeout: 120_000 }, () => {
  afterAll(() => closeBrowsers());
  for (const t of codeSite.templates) {
    it(`${t.id}: the oracle scores 1 on instances 0 and 1 (other arguments, other answers)`, async () => {
      for (const i of [0, 1]) {
        const r = await runOracle(codeSite, t.id, i);
        expect(r.correct, `${t.id}/${i}: ${r.note}\n${r.steps.join('\n')}`).toBe(true);
      }
    });
  }
});
