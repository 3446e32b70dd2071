// CodeHub's five task templates. Instance k takes the k-th candidate of a seeded permutation (deduplicated by
// answer), so siblings differ in arguments and answers; the oracle is the procedure the quirk calls for.
import { seededRandom } from '../../../../engine/random.ts';
import { exactAnswer, numberAnswer, stateCheck } from '../../check.ts';
import type { WebInstance, WebTemplate } from '../../site.ts';
import { issuesOf, latestRelease, pullsOf, reposInTopic, shuffle, type CodeDb } from './db.ts';

/** The instance-th of the candidates in a seeded order, after dropping candidates whose key was seen earlier. */
function nth<T>(db: CodeDb, templateId: string, candidates: T[], key: (c: T) => string, instance: number): T {
  const seen = new Set<string>();
  const distinct = shuffle(seededRandom('code-pick', db.seed, templateId), candidates).filter(
    (c) => !seen.has(key(c)) && seen.add(key(c)),
  );
  if (!distinct.length) throw new Error(`${templateId}: no candidates`);
  return distinct[instance % distinct.length] as T;
}

const openRepo = (full: string) => [`Type textbox "Search repositories"; ${full}`, `Click link "${full}"`];
const norm = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

const topStarred: WebTemplate<CodeDb> = {
  id: 'top-starred-in-topic',
  quirk:
    'topic pages sort by "Recently updated" and page by 10; the most-starred repository shows first only after choosing "Most stars" in the Sort menu',
  generate(_random, instance, db) {
    const topic = nth(db, 'top-starred-in-topic', db.topics, (t) => t, instance);
    const top = [...reposInTopic(db, topic)].sort((a, b) => b.stars - a.stars)[0];
    if (!top) throw new Error(`topic ${topic} is empty`);
    return {
      instruction: `On CodeHub, which repository with the topic "${topic}" has the most stars? Give its full name.`,
      start: '/',
      check: ({ answer }) => exactAnswer(top.full, answer),
      oracle: [
        `Click link "${topic}"`,
        'Click generic "Sort by recently updated"',
        'Click link "Most stars"',
        `ANSWER; ${top.full}`,
      ],
      expected: `answer ${top.full} (${top.stars} stars)`,
    };
  },
};

const latestReleaseTag: WebTemplate<CodeDb> = {
  id: 'latest-release-tag',
  quirk:
    'the latest release is the top entry of the Releases tab; the Tags tab and the "Newest tag" line show a newer pre-release tag',
  generate(_random, instance, db) {
    const candidates = db.repos.filter((r) => r.releases.at(-1)?.prerelease);
    const repo = nth(db, 'latest-release-tag', candidates, (r) => latestRelease(r)?.tag ?? '', instance);
    const tag = latestRelease(repo)?.tag as string;
    return {
      instruction: `On CodeHub, what is the tag of the latest release of the repository "${repo.full}"?`,
      start: '/',
      check: ({ answer }) => exactAnswer(tag, answer, [tag.slice(1)]),
      oracle: [...openRepo(repo.full), 'Click link "Releases"', `ANSWER; ${tag}`],
      expected: `answer ${tag} (not the pre-release ${repo.tags[0]})`,
    };
  },
};

const NEW_ISSUE_TITLES = [
  'Crash on empty input',
  'Add dark mode',
  'Typo in README',
  'Slow startup on Windows',
  'Support Node 22',
  'Broken link in docs',
  'Memory leak in watcher',
  'Add JSON export',
  'Flaky test in CI',
  'Improve error messages',
  'Config file ignored',
  'Add ARM64 builds',
  'Timeout too short',
  'Missing license header',
  'Unicode paths fail',
];

const openLabelledIssue: WebTemplate<CodeDb> = {
  id: 'open-labelled-issue',
  quirk:
    'the new-issue form has no label field: labels are set afterwards on the issue page, in the "Labels" picker, and only take effect on "Apply labels"',
  generate(random, instance, db) {
    const repo = nth(db, 'open-labelled-issue', db.repos, (r) => r.full, instance);
    const title = NEW_ISSUE_TITLES[instance % NEW_ISSUE_TITLES.length] as string;
    const label = db.labels[Math.floor(random() * db.labels.length)] as string;
    return {
      instruction: `On CodeHub, open an issue titled "${title}" in "${repo.full}" with the label "${label}".`,
      start: '/',
      check: ({ before, after }) => {
        const n = before.issues.length;
        const made = after.issues[n];
        return stateCheck(
          before,
          after,
          [
            { what: `a new issue in ${repo.full}`, holds: made?.repo === repo.full },
            { what: `titled "${title}"`, holds: norm(made?.title) === norm(title) },
            { what: `labelled only "${label}"`, holds: made?.labels.length === 1 && made.labels[0] === label },
          ],
          [`issues.${n}`],
        );
      },
      oracle: [
        ...openRepo(repo.full),
        'Click link "Issues"',
        'Click link "New issue"',
        `Type textbox "Title"; ${title}`,
        'Click generic "Labels"',
        `Click checkbox "${label}"`,
        'Click button "Apply labels"',
        'ANSWER; done',
      ],
      expected: `a new open issue "${title}" in ${repo.full} labelled ${label}`,
    };
  },
};

const pullAuthor: WebTemplate<CodeDb> = {
  id: 'pull-request-author',
  quirk:
    'the pull request list shows open ones by default and the asked one is closed or merged (under "Closed"); an open namesake "… tests" by someone else is shown instead',
  generate(_random, instance, db) {
    const candidates = db.pulls.filter(
      (p) =>
        p.state !== 'open' && pullsOf(db, p.repo).some((o) => o.state === 'open' && o.title.startsWith(`${p.title} `)),
    );
    const pull = nth(db, 'pull-request-author', candidates, (p) => p.author, instance);
    return {
      instruction: `On CodeHub, who opened the pull request "${pull.title}" in "${pull.repo}"? Give the username.`,
      start: '/',
      check: ({ answer }) => exactAnswer(pull.author, answer, [`@${pull.author}`]),
      oracle: [
        ...openRepo(pull.repo),
        'Click link "Pull requests"',
        'Click link "Closed"',
        `Click link "${pull.title}"`,
        `ANSWER; ${pull.author}`,
      ],
      expected: `answer ${pull.author} (the pull request is ${pull.state})`,
    };
  },
};

const countOpenLabelled: WebTemplate<CodeDb> = {
  id: 'count-open-labelled',
  quirk:
    'the count badge beside a label counts open and closed issues; the open count is the summary line after clicking the label in the issue list',
  generate(_random, instance, db) {
    const pairs: { full: string; label: string; open: number; all: number }[] = [];
    for (const repo of db.repos)
      for (const label of db.labels) {
        const tagged = issuesOf(db, repo.full).filter((x) => x.labels.includes(label));
        const open = tagged.filter((x) => x.state === 'open').length;
        if (open > 0 && open < tagged.length) pairs.push({ full: repo.full, label, open, all: tagged.length });
      }
    const pair = nth(db, 'count-open-labelled', pairs, (p) => String(p.open), instance);
    const instanceOf: WebInstance<CodeDb> = {
      instruction: `On CodeHub, how many open issues in "${pair.full}" have the label "${pair.label}"?`,
      start: '/',
      check: ({ answer }) => numberAnswer(pair.open, answer),
      oracle: [...openRepo(pair.full), 'Click link "Issues"', `Click link "${pair.label}"`, `ANSWER; ${pair.open}`],
      expected: `answer ${pair.open} (the label's badge says ${pair.all}, counting closed issues)`,
    };
    return instanceOf;
  },
};

export const CODE_TEMPLATES: WebTemplate<CodeDb>[] = [
  topStarred,
  latestReleaseTag,
  openLabelledIssue,
  pullAuthor,
  countOpenLabelled,
];
