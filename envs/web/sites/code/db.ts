// CodeHub's seeded database: users, repositories (topics, stars, releases, tags), issues with labels and pull
// requests. Plain JSON, deterministic for a seed. A few records are shaped so that the templates' quirks bite:
// each topic's most-starred repository is its least recently updated, most repositories have a pre-release tag
// newer than their latest release, some closed pull requests have an open namesake ("… tests"), and some labels
// carry closed issues next to open ones.
import { seededRandom } from '../../../../engine/random.ts';
import type { SiteDb } from '../../site.ts';

export interface Release {
  tag: string;
  date: string;
  prerelease: boolean;
}

export interface Repo {
  owner: string;
  name: string;
  /** "owner/name" */
  full: string;
  description: string;
  language: string;
  topics: string[];
  stars: number;
  forks: number;
  updatedAt: string;
  /** Oldest first. */
  releases: Release[];
  /** Tag names, newest first (every release's tag, pre-releases included). */
  tags: string[];
  starred: boolean;
}

export interface Issue {
  repo: string;
  number: number;
  title: string;
  body: string;
  author: string;
  state: 'open' | 'closed';
  labels: string[];
  createdAt: string;
}

export interface Pull {
  repo: string;
  number: number;
  title: string;
  author: string;
  state: 'open' | 'closed' | 'merged';
  branch: string;
  mergedBy: string;
  createdAt: string;
}

export interface CodeDb extends SiteDb {
  seed: number;
  /** The signed-in user. */
  me: string;
  topics: string[];
  labels: string[];
  repos: Repo[];
  issues: Issue[];
  pulls: Pull[];
}

export const TOPICS = [
  'compiler',
  'database',
  'graphics',
  'networking',
  'testing',
  'security',
  'robotics',
  'audio',
  'cryptography',
  'cli',
  'webassembly',
  'embedded',
  'geospatial',
  'compression',
  'parsing',
];
export const LABELS = [
  'bug',
  'enhancement',
  'documentation',
  'question',
  'performance',
  'security',
  'good first issue',
  'help wanted',
];
const USERS = [
  'mira',
  'tobias',
  'anouk',
  'kenji',
  'lena',
  'rafael',
  'sofia',
  'dmitri',
  'amara',
  'oskar',
  'priya',
  'jonas',
  'elif',
  'marco',
  'hana',
  'viktor',
  'nadia',
  'felix',
  'ines',
  'tariq',
  'yuki',
  'bruno',
  'clara',
  'emeka',
];
const ORGS = ['lumen-labs', 'northwind', 'opencraft', 'bitforge', 'tidewater', 'quarkhaus'];
const NOUNS = [
  'quartz',
  'ember',
  'nimbus',
  'falcon',
  'cobalt',
  'juniper',
  'orbit',
  'pebble',
  'lantern',
  'harbor',
  'willow',
  'ripple',
  'summit',
  'cinder',
  'maple',
  'beacon',
  'tundra',
  'comet',
  'saffron',
  'delta',
  'ivory',
  'onyx',
  'prism',
  'quill',
  'raven',
  'sierra',
  'thistle',
  'umber',
  'vortex',
  'zephyr',
  'aspen',
  'basalt',
  'coral',
  'dune',
  'fjord',
  'garnet',
  'heron',
  'iris',
  'jasper',
  'kestrel',
  'lotus',
  'meadow',
  'nova',
  'opal',
  'pine',
  'quasar',
  'reef',
  'sable',
  'tide',
  'vale',
];
const SUFFIXES = ['', '', '-kit', '-core', '-rs', '-js', '-lab', '-tools'];
const LANGUAGES = ['Rust', 'Go', 'TypeScript', 'Python', 'C++', 'Zig', 'Kotlin', 'C'];
const ISSUE_TITLES = [
  'Crash when {x} is empty',
  'Support {x} in config',
  'Explain {x} in the docs',
  'Improve {x} performance',
  '{x} fails on Windows',
  'Add option to disable {x}',
  'Wrong error message for {x}',
  'Question about {x} defaults',
  'Flaky test around {x}',
  'Deprecate old {x} API',
];
const THINGS = [
  'caching',
  'logging',
  'the parser',
  'retries',
  'timeouts',
  'plugins',
  'the CLI',
  'streaming',
  'locales',
  'symlinks',
  'proxies',
  'hooks',
];
/** Titles of pull requests that get an open namesake; unique across the database. */
export const TARGET_PR_TITLES = [
  'Add streaming parser',
  'Refactor config loader',
  'Fix race in scheduler',
  'Cache compiled patterns',
  'Drop legacy build script',
  'Rewrite error reporting',
  'Speed up startup',
  'Add retry backoff',
  'Support custom themes',
  'Migrate to async IO',
  'Split core module',
  'Harden input validation',
  'Add metrics endpoint',
  'Remove global state',
  'Batch database writes',
  'Improve CLI help text',
  'Add fuzzing harness',
  'Simplify plugin API',
];
const DECOY_SUFFIXES = ['tests', 'follow-up', 'benchmarks', 'docs', 'part 2'];
const PR_TITLES = [
  'Bump dependencies',
  'Fix typo in README',
  'Add CI cache',
  'Update license year',
  'Tidy imports',
  'Fix flaky snapshot test',
  'Add example config',
  'Pin toolchain version',
  'Improve logging format',
  'Handle empty files',
];

const NOW = Date.UTC(2024, 5, 1);
const day = 86_400_000;
export const isoDaysAgo = (days: number) => new Date(NOW - Math.round(days) * day).toISOString().slice(0, 10);

type Rnd = () => number;
const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rnd, xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
export function shuffle<T>(r: Rnd, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

function releasesOf(r: Rnd): { releases: Release[]; tags: string[] } {
  const major = int(r, 0, 4);
  let [minor, patch] = [int(r, 0, 9), 0];
  let age = int(r, 300, 700);
  const releases: Release[] = [];
  const count = int(r, 3, 7);
  for (let i = 0; i < count; i++) {
    releases.push({ tag: `v${major}.${minor}.${patch}`, date: isoDaysAgo(age), prerelease: false });
    age -= int(r, 15, 70);
    if (r() < 0.5) patch++;
    else [minor, patch] = [minor + 1, 0];
  }
  // Most repositories have a release candidate of the next minor version out, newer than the latest release.
  if (r() < 0.8)
    releases.push({
      tag: `v${major}.${minor + 1}.0-rc.${int(r, 1, 3)}`,
      date: isoDaysAgo(Math.max(age, 3)),
      prerelease: true,
    });
  return { releases, tags: releases.map((x) => x.tag).reverse() };
}

function makeRepos(r: Rnd): Repo[] {
  const owners = [...USERS, ...ORGS];
  const names = new Set<string>();
  const repos: Repo[] = [];
  for (let i = 0; i < 75; i++) {
    let full = '';
    let owner = '';
    let name = '';
    while (!full || names.has(full)) {
      owner = pick(r, owners);
      name = pick(r, NOUNS) + pick(r, SUFFIXES);
      full = `${owner}/${name}`;
    }
    names.add(full);
    const champion = i < TOPICS.length;
    const stars = champion ? int(r, 8000, 30000) : Math.floor(Math.exp(r() * 8.6)) + 3;
    const language = pick(r, LANGUAGES);
    repos.push({
      owner,
      name,
      full,
      description: '',
      language,
      topics: champion ? [TOPICS[i] as string] : [],
      stars,
      forks: Math.floor(stars * (0.05 + r() * 0.2)),
      // A topic's most-starred repository is older than all its other repositories: last under the default sort.
      updatedAt: isoDaysAgo(champion ? int(r, 400, 900) : int(r, 0, 360)),
      ...releasesOf(r),
      starred: false,
    });
  }
  const others = repos.slice(TOPICS.length);
  for (const topic of TOPICS) for (const repo of shuffle(r, others).slice(0, int(r, 11, 14))) repo.topics.push(topic);
  for (const repo of repos) {
    repo.topics.sort();
    const what = repo.topics[0] ?? 'developer';
    repo.description = `${pick(r, ['A small', 'A fast', 'A friendly', 'A modular', 'An embeddable'])} ${what} toolkit written in ${repo.language}`;
  }
  return shuffle(r, repos);
}

function issueTitle(r: Rnd): string {
  const t = pick(r, ISSUE_TITLES).replace('{x}', pick(r, THINGS));
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function makeIssuesAndPulls(r: Rnd, repos: Repo[]): { issues: Issue[]; pulls: Pull[] } {
  const issues: Issue[] = [];
  const pulls: Pull[] = [];
  // Counting targets: in 16 repositories one label has k open issues (k = 1..16) and a few closed ones.
  const counted = new Map<string, { label: string; open: number }>();
  shuffle(r, repos)
    .slice(0, 16)
    .forEach((repo, k) => counted.set(repo.full, { label: pick(r, LABELS), open: k + 1 }));
  // Author targets: in 18 repositories a closed or merged pull request has an open namesake by someone else.
  const authors = shuffle(r, USERS);
  const namesakes = new Map<string, { title: string; author: string }>();
  shuffle(r, repos)
    .slice(0, TARGET_PR_TITLES.length)
    .forEach((repo, k) =>
      namesakes.set(repo.full, { title: TARGET_PR_TITLES[k] as string, author: authors[k % authors.length] as string }),
    );

  for (const repo of repos) {
    let number = 0;
    const target = counted.get(repo.full);
    const labelPool = LABELS.filter((l) => l !== target?.label);
    const add = (state: Issue['state'], labels: string[]) =>
      issues.push({
        repo: repo.full,
        number: ++number,
        title: issueTitle(r),
        body: 'Steps to reproduce are in the attached log.',
        author: pick(r, USERS),
        state,
        labels,
        createdAt: isoDaysAgo(int(r, 1, 300)),
      });
    for (let i = int(r, 5, 14); i > 0; i--) {
      const labels = r() < 0.8 ? [pick(r, labelPool)] : [];
      if (r() < 0.25)
        labels.push(
          pick(
            r,
            labelPool.filter((l) => !labels.includes(l)),
          ),
        );
      add(r() < 0.6 ? 'open' : 'closed', labels);
    }
    if (target) {
      for (let i = 0; i < target.open; i++) add('open', [target.label]);
      for (let i = int(r, 2, 6); i > 0; i--) add('closed', [target.label]);
    }
    const addPull = (title: string, author: string, state: Pull['state']) =>
      pulls.push({
        repo: repo.full,
        number: ++number,
        title,
        author,
        state,
        branch: `${author}:${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
        mergedBy: state === 'merged' ? pick(r, USERS) : '',
        createdAt: isoDaysAgo(int(r, 1, 300)),
      });
    for (const title of shuffle(r, PR_TITLES).slice(0, int(r, 3, 7)))
      addPull(title, pick(r, USERS), pick(r, ['open', 'open', 'closed', 'merged'] as const));
    const namesake = namesakes.get(repo.full);
    if (namesake) {
      addPull(namesake.title, namesake.author, r() < 0.6 ? 'merged' : 'closed');
      addPull(
        `${namesake.title} ${pick(r, DECOY_SUFFIXES)}`,
        pick(
          r,
          USERS.filter((u) => u !== namesake.author),
        ),
        'open',
      );
    }
  }
  // Newest first, as lists show them.
  issues.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.repo.localeCompare(b.repo) || b.number - a.number);
  pulls.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.repo.localeCompare(b.repo) || b.number - a.number);
  return { issues, pulls };
}

export function createDb(seed: number): CodeDb {
  const r = seededRandom('code', seed);
  const repos = makeRepos(r);
  return { seed, me: 'guest', topics: [...TOPICS], labels: [...LABELS], repos, ...makeIssuesAndPulls(r, repos) };
}

// --- queries shared by pages and templates ---

export const repoOf = (db: CodeDb, full: string) => db.repos.find((x) => x.full === full);
export const issuesOf = (db: CodeDb, full: string) => db.issues.filter((x) => x.repo === full);
export const pullsOf = (db: CodeDb, full: string) => db.pulls.filter((x) => x.repo === full);
export const latestRelease = (repo: Repo) => [...repo.releases].reverse().find((x) => !x.prerelease);
export const reposInTopic = (db: CodeDb, topic: string) => db.repos.filter((x) => x.topics.includes(topic));
export function nextNumber(db: CodeDb, full: string): number {
  return Math.max(0, ...issuesOf(db, full).map((x) => x.number), ...pullsOf(db, full).map((x) => x.number)) + 1;
}
