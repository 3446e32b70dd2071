// A multiple-choice benchmark in the data format: chats between two friends over some weeks in which each of them
// weighs options (cities, jobs, pets' names, cars, trips) and later settles on one, sometimes changing their mind
// again. Each question lists the options that were weighed plus one never mentioned for that person; the offline
// reader picks the choice whose words the payload holds most (ties: the earlier choice), so a payload that brings back
// every option weighed is as good as a guess, and one that brings the decision is right.
import { writeFileSync } from 'node:fs';
import { rng } from './random.ts';

const TOPICS = [
  {
    key: 'city',
    q: 'Which city did {p} move to?',
    weigh: '{p}: We looked at flats in {a} and {b} this weekend.',
    pick: '{p}: We signed for a flat in {x}, moving next month!',
    change: '{p}: Change of plan, the flat fell through, we are moving to {x} instead.',
    options: ['Lisbon', 'Porto', 'Madrid', 'Berlin', 'Vienna', 'Prague', 'Oslo', 'Dublin', 'Krakow', 'Turin'],
  },
  {
    key: 'job',
    q: 'Which company does {p} work for now?',
    weigh: '{p}: I have interviews at {a} and {b} next week.',
    pick: '{p}: I accepted the offer from {x}, starting Monday.',
    change: '{p}: I left after a month, I joined {x} now.',
    options: [
      'Acme Robotics',
      'Blue Harbor',
      'Copperleaf',
      'Driftwood Labs',
      'Evergreen Bank',
      'Foxglove Media',
      'Granite Works',
      'Helio Foods',
    ],
  },
  {
    key: 'pet',
    q: 'What did {p} name the new puppy?',
    weigh: '{p}: We are torn between calling the puppy {a} or {b}.',
    pick: '{p}: The puppy is officially called {x}.',
    change: '{p}: The name did not stick, the puppy answers to {x} now.',
    options: ['Biscuit', 'Pepper', 'Juniper', 'Noodle', 'Maple', 'Ziggy', 'Clover', 'Waffles'],
  },
  {
    key: 'car',
    q: 'Which car did {p} buy?',
    weigh: '{p}: Test drove a {a} and a {b} today.',
    pick: '{p}: Bought the {x}, picking it up on Saturday.',
    change: '{p}: Returned it, traded it in for a {x}.',
    options: [
      'Volvo wagon',
      'Honda hatchback',
      'Skoda estate',
      'Mazda roadster',
      'Toyota hybrid',
      'Fiat van',
      'Kia crossover',
      'Ford pickup',
    ],
  },
  {
    key: 'trip',
    q: 'Where is {p} going on holiday?',
    weigh: '{p}: For the holiday I am thinking {a} or maybe {b}.',
    pick: '{p}: Booked it, we are going to {x} in August.',
    change: '{p}: Cancelled that trip, we rebooked for {x}.',
    options: ['Crete', 'Iceland', 'Kyoto', 'Sicily', 'Patagonia', 'Morocco', 'Bali', 'Tuscany'],
  },
];
const CHATTER = [
  '{p}: How was your week?',
  '{p}: Busy, the usual.',
  '{p}: Did you watch the match?',
  '{p}: I started running again.',
  '{p}: The weather has been awful.',
  '{p}: Call you later tonight.',
  '{p}: Mum says hi.',
  '{p}: I finally fixed the bike.',
];
const NAMES = [
  ['Mia', 'Tom'],
  ['Sara', 'Leo'],
  ['Ines', 'Raf'],
  ['Zoe', 'Amir'],
  ['Lucy', 'Finn'],
  ['Noor', 'Sam'],
];

const fill = (t: string, v: Record<string, string>) => t.replace(/\{(\w)\}/g, (_, k: string) => v[k] ?? '');

export function choices(seed: number, worlds = 24, sessions = 8): string {
  const r = rng(seed);
  const lines: string[] = [
    JSON.stringify({
      type: 'dataset',
      name: 'friends-choices',
      description:
        'Chats between two friends over some weeks in which each weighs options and later decides (sometimes changing their mind). Questions ask what was decided, with the options weighed as choices.',
      scoring: 'multiple-choice',
      budget: { maxChars: 1500, maxImages: 0 },
      // Multiple choice is noisy question by question: validation holds enough questions to rank programs by it.
      trainShare: 0.4,
    }),
  ];
  for (let w = 0; w < worlds; w++) {
    const pair = NAMES[w % NAMES.length] as string[];
    const start = Date.UTC(2023, r.int(12), 1 + r.int(25), 18);
    const turns: { id: string; speaker: string; text: string }[][] = Array.from({ length: sessions }, () => []);
    const say = (s: number, speaker: string, text: string) => {
      const list = turns[s] as { id: string; speaker: string; text: string }[];
      const turn = { id: `d${s + 1}:${list.length + 1}`, speaker, text: text.replace(`${speaker}: `, '') };
      list.push(turn);
      return turn;
    };
    const questions: unknown[] = [];
    for (const p of pair) {
      for (const topic of r.shuffle(TOPICS).slice(0, 3)) {
        const [a, b, c, d] = r.shuffle(topic.options);
        const weighed = say(r.int(3), p, fill(topic.weigh, { p, a: a as string, b: b as string }));
        const decided = r.pick([a, b]) as string;
        let final = decided;
        let evidence = say(3 + r.int(2), p, fill(topic.pick, { p, x: decided }));
        if (r.next() < 0.4) {
          final = c as string;
          evidence = say(5 + r.int(sessions - 5), p, fill(topic.change, { p, x: final }));
        }
        void weighed;
        const options = r.shuffle([a, b, c, d] as string[]);
        questions.push({
          id: `w${w}-${p}-${topic.key}`,
          question: fill(topic.q, { p }),
          scenario: final === decided ? 'decided' : 'changed',
          choices: options,
          correct: options.indexOf(final),
          evidence: [evidence.id],
        });
      }
    }
    for (let s = 0; s < sessions; s++)
      for (let n = 0; n < 6; n++) say(s, r.pick(pair) as string, fill(r.pick(CHATTER), { p: '' }).replace(/^: /, ''));
    lines.push(
      JSON.stringify({
        type: 'world',
        id: `friends-${w + 1}`,
        speakers: pair,
        sessions: turns.map((t, s) => ({
          time: new Date(start + s * 5 * 86_400_000).toISOString(),
          turns: r.shuffle(t),
        })),
        questions,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeChoices(path: string, seed: number): void {
  writeFileSync(path, choices(seed));
}
