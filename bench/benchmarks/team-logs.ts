// A question-answering benchmark in the data format (envs/data/README.md), scored by answer containment within a
// small payload (700 characters): weekly team chats in which facts about the team's services are stated once
// (which database a service runs on), change over time (who owns it, which version is deployed) or are dated (the
// day a version shipped), among many lines that name the same services without the answer. Questions ask for a
// stated fact, the latest value of a changing one, and the date of an event (the answer is the session's date, which
// only a payload that shows when a turn was said holds).
import { writeFileSync } from 'node:fs';
import { rng } from './random.ts';

const SERVICES = ['billing', 'search', 'auth', 'reports', 'gateway', 'ingest', 'mailer', 'ledger'];
const DATABASES = ['Postgres', 'MySQL', 'Cassandra', 'Redis', 'SQLite', 'DynamoDB', 'MongoDB', 'CockroachDB'];
const OWNERS = [
  'the platform team',
  'the data team',
  'the payments squad',
  'the growth squad',
  'the infra guild',
  'the mobile team',
];
const PEOPLE = [
  ['Ana', 'Ben', 'Caro'],
  ['Dev', 'Eli', 'Fay'],
  ['Gus', 'Hana', 'Ivo'],
  ['Jo', 'Kai', 'Lena'],
  ['Max', 'Nia', 'Omar'],
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
// Lines that name a service with the words its questions use (owns, deployed, version, database, day) and answer none.
const NOISE = [
  'the {s} dashboard is slow again this morning',
  'the {s} tests were flaky on the last build',
  'can someone review my {s} pull request before it is deployed',
  'I added alerts for the {s} database latency',
  'the {s} docs still say nobody owns the runbook',
  'which day works for the {s} version review',
  'we should have deployed the {s} hotfix earlier',
  'the {s} service database backups ran long today',
  'the next {s} version needs a changelog',
  '{s} ownership of the alerts is still unclear',
];
const CHATTER = [
  'lunch at noon?',
  'the coffee machine is broken again',
  'I am out on Friday',
  'good demo yesterday',
  'the office is cold today',
  'reminder: retro at four',
];

interface Turn {
  id: string;
  speaker: string;
  text: string;
}

export function teamLogs(seed: number, worlds = 16, sessions = 10): string {
  const r = rng(seed);
  const lines: string[] = [
    JSON.stringify({
      type: 'dataset',
      name: 'team-logs',
      description:
        'Weekly chats of software teams about their services, then questions about what was said: a stated fact, the latest value of something that changed, or the day something happened.',
      scoring: 'answer-containment',
      budget: { maxChars: 700, maxImages: 0 },
    }),
  ];
  for (let w = 0; w < worlds; w++) {
    const people = PEOPLE[w % PEOPLE.length] as string[];
    const services = r.shuffle(SERVICES).slice(0, 3);
    const start = Date.UTC(2024, r.int(10), 1 + r.int(20), 9);
    const turnsBySession: Turn[][] = Array.from({ length: sessions }, () => []);
    const say = (s: number, text: string) => {
      const turn = { id: `s${s + 1}:${(turnsBySession[s] as Turn[]).length + 1}`, speaker: r.pick(people), text };
      (turnsBySession[s] as Turn[]).push(turn);
      return turn;
    };
    const dateOf = (s: number) => {
      const d = new Date(start + s * 7 * 86_400_000);
      return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    };
    const questions: unknown[] = [];
    for (const [k, svc] of services.entries()) {
      // A stated fact, early.
      const db = r.pick(DATABASES);
      const dbTurn = say(r.int(3), `The ${svc} service runs on ${db}, we settled that.`);
      questions.push({
        id: `w${w}-${svc}-db`,
        question: `Which database does the ${svc} service run on?`,
        scenario: 'facts',
        answers: [db],
        evidence: [dbTurn.id],
      });
      // A changing owner: two or three handovers; the question asks for the latest.
      const owners = r.shuffle(OWNERS).slice(0, 3 + r.int(2));
      let ownerTurn: Turn | undefined;
      owners.forEach((o, i) => {
        const s = Math.min(sessions - 1, i * 2 + r.int(2));
        ownerTurn = say(s, i === 0 ? `${o} owns ${svc} for now.` : `From this week ${svc} is owned by ${o}.`);
      });
      questions.push({
        id: `w${w}-${svc}-owner`,
        question: `Who owns the ${svc} service now?`,
        scenario: 'updates',
        answers: [owners[owners.length - 1]],
        evidence: [(ownerTurn as Turn).id],
      });
      // Versions deployed over time: the latest, and the day one of them shipped.
      const deploys = [1, 2, 3, 4].map((v) => ({
        version: `${svc} ${k + 1}.${v * 2 + r.int(2)}`,
        session: Math.min(sessions - 1, v * 2 + r.int(2)),
      }));
      const turns = deploys.map((d) => say(d.session, `We deployed ${d.version} today.`));
      const last = deploys.length - 1;
      questions.push({
        id: `w${w}-${svc}-version`,
        question: `Which version of ${svc} was deployed most recently?`,
        scenario: 'updates',
        answers: [deploys[last]?.version],
        evidence: [turns[last]?.id],
      });
      const asked = r.int(deploys.length);
      questions.push({
        id: `w${w}-${svc}-when`,
        question: `On which day did the team deploy ${deploys[asked]?.version}?`,
        scenario: 'temporal',
        answers: [dateOf(deploys[asked]?.session as number)],
        evidence: [turns[asked]?.id],
      });
    }
    // Lines that name the services without answering anything, and chatter.
    for (let s = 0; s < sessions; s++) {
      for (let n = 0; n < 7; n++) say(s, (r.pick(NOISE) as string).replace('{s}', r.pick(services) as string));
      for (let n = 0; n < 3; n++) say(s, r.pick(CHATTER));
    }
    const world = {
      type: 'world',
      id: `team-${w + 1}`,
      speakers: people,
      sessions: turnsBySession.map((turns, s) => ({
        time: new Date(start + s * 7 * 86_400_000).toISOString(),
        label: dateOf(s),
        turns: r.shuffle(turns),
      })),
      questions,
    };
    lines.push(JSON.stringify(world));
  }
  return `${lines.join('\n')}\n`;
}

export function writeTeamLogs(path: string, seed: number): void {
  writeFileSync(path, teamLogs(seed));
}
