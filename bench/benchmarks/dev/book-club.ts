// A development benchmark (for tuning the offline agent, never measured by bench:search): a book club's group chat.
// Each month members propose books and places, a vote picks one, and sometimes the pick changes. Multiple choice
// among the options that were proposed.
import { writeFileSync } from 'node:fs';
import { rng } from '../random.ts';

const BOOKS = [
  'Middlemarch',
  'The Road',
  'Beloved',
  'Stoner',
  'Kindred',
  'Piranesi',
  'Dune',
  'Rebecca',
  'Persuasion',
  'Solaris',
  'Ulysses',
  'Emma',
];
const PLACES = ['the library', "Ada's flat", 'the Crown pub', 'the park cafe', 'the bookshop loft', "Jun's garden"];
const MEMBERS = ['Ada', 'Jun', 'Pia', 'Olu'];
const CHAT = [
  'running late, sorry',
  'who has the spare copy?',
  'loved last month',
  'I am halfway through',
  'can we start at seven?',
  'bringing snacks',
];

export function bookClub(seed: number, worlds = 12, months = 8): string {
  const r = rng(seed);
  const out = [
    JSON.stringify({
      type: 'dataset',
      name: 'book-club',
      scoring: 'multiple-choice',
      budget: { maxChars: 1200, maxImages: 0 },
      description: 'A book club chat: proposals, votes, changes of plan.',
    }),
  ];
  for (let w = 0; w < worlds; w++) {
    const start = Date.UTC(2021, r.int(12), 2, 19);
    const sessions: { id: string; speaker: string; text: string }[][] = Array.from({ length: months }, () => []);
    const say = (m: number, text: string) => {
      const t = { id: `m${m}.${sessions[m]!.length}`, speaker: r.pick(MEMBERS), text };
      sessions[m]!.push(t);
      return t;
    };
    const questions: unknown[] = [];
    for (let m = 0; m < months; m++) {
      const [a, b, c] = r.shuffle(BOOKS);
      say(m, `I propose ${a}.`);
      say(m, `What about ${b}?`);
      let pick = r.pick([a, b]) as string;
      let ev = say(m, `Vote is in: we read ${pick} this month.`);
      let kind = 'vote';
      if (r.next() < 0.3) {
        pick = c as string;
        ev = say(m, `Library had no copies, switching to ${pick}.`);
        kind = 'switched';
      }
      const choices = r.shuffle([a, b, c, r.pick(BOOKS.filter((x) => ![a, b, c].includes(x)))] as string[]);
      const monthName = new Date(start + m * 30 * 86_400_000).toLocaleString('en-GB', {
        month: 'long',
        timeZone: 'UTC',
      });
      questions.push({
        id: `b${w}-m${m}`,
        question: `Which book did the club read in ${monthName}?`,
        scenario: kind,
        choices,
        correct: choices.indexOf(pick),
        evidence: [ev.id],
      });
      const [p, q2] = r.shuffle(PLACES);
      say(m, `Meet at ${p} or ${q2}?`);
      const place = r.pick([p, q2]) as string;
      const pe = say(m, `Settled, ${place} it is.`);
      const pc = r.shuffle([p, q2, r.pick(PLACES.filter((x) => x !== p && x !== q2))] as string[]);
      questions.push({
        id: `b${w}-p${m}`,
        question: `Where did the club meet in ${monthName}?`,
        scenario: 'place',
        choices: pc,
        correct: pc.indexOf(place),
        evidence: [pe.id],
      });
      for (let k = 0; k < 4; k++) say(m, r.pick(CHAT));
    }
    out.push(
      JSON.stringify({
        type: 'world',
        id: `club-${w}`,
        speakers: MEMBERS,
        sessions: sessions.map((turns, m) => ({ time: start + m * 30 * 86_400_000, turns: r.shuffle(turns) })),
        questions,
      }),
    );
  }
  return `${out.join('\n')}\n`;
}

export const writeBookClub = (path: string, seed: number) => writeFileSync(path, bookClub(seed));
