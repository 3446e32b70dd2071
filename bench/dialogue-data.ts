// A generated dialogue benchmark in the data format (envs/data/README.md): worlds of two speakers chatting over
// many sessions, facts stated once among small talk, and questions whose evidence is the turn that stated the
// fact (scored by evidence recall, as LoCoMo is). Seeded, so every run writes the same file. Turns run about as
// long as LoCoMo's (~100–200 characters), so embedding them costs what a researcher's own dialogue data costs.

const NAMES = ['Ana', 'Ben', 'Chloe', 'Dev', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya'];
const PETS = ['Biscuit', 'Pepper', 'Mango', 'Noodle', 'Ziggy', 'Olive', 'Pickles', 'Juniper'];
const CITIES = ['Lisbon', 'Osaka', 'Montreal', 'Nairobi', 'Tallinn', 'Valparaiso', 'Hobart', 'Ghent'];
const HOBBIES = ['pottery', 'bouldering', 'the cello', 'birdwatching', 'sourdough baking', 'chess', 'kayaking', 'watercolour'];
const DISHES = ['mushroom risotto', 'lamb tagine', 'green curry', 'pierogi', 'shakshuka', 'bibimbap', 'ceviche', 'ramen'];
const FACTS: ((v: string) => [text: string, question: (who: string) => string])[] = [
  (v) => [`We finally adopted a puppy last weekend, we named her ${v} after the snack I had that day.`, (w) => `What is the name of ${w}'s puppy?`],
  (v) => [`Big news from my side: the job came through, so we are moving to ${v} at the end of the summer.`, (w) => `Which city is ${w} moving to?`],
  (v) => [`I signed up for a weekly class in ${v}, it is the first hobby in years that makes me forget my phone.`, (w) => `Which weekly class did ${w} sign up for?`],
  (v) => [`My grandmother taught me her ${v} recipe on Sunday and I have cooked it three times since.`, (w) => `Which recipe did ${w}'s grandmother teach them?`],
];
const VALUES = [PETS, CITIES, HOBBIES, DISHES];
const SMALL_TALK = [
  'How was your week? Mine went by so fast, I barely noticed it was {day} already.',
  'I have been sleeping badly, the neighbours are renovating and they start drilling at {n} in the morning.',
  'Did you watch the match on {day}? I could not believe the goal in minute {n}, the whole pub near {place} went silent.',
  'Work is fine, a bit hectic with the review of the {thing} project, but the team is great so it is bearable.',
  'We went for a {n} kilometre walk along the river by {place}, the weather was perfect and there were so many people out.',
  'I finished that novel about {thing} you recommended, the ending surprised me even though I thought I had guessed it.',
  'My sister visited with the kids for {n} days, the house was chaos but it was lovely to see them.',
  'I am trying to cut down to {n} coffees a week, which is going about as well as you would expect.',
  'The train from {place} was {n} minutes late again this morning, I think I will start cycling once the days get longer.',
  'Honestly I just need a holiday, somewhere like {place} with a beach and no internet connection at all.',
  'That sounds wonderful, tell me more about the {thing} next time we talk, I want all the details.',
  'Haha, same here. Let us catch up properly soon, maybe over dinner at that new place on {place} street on {day}.',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const PLACES = ['Elm', 'Harbour', 'Mill', 'Station', 'Queen', 'Garden', 'Market', 'Bridge', 'Castle', 'Orchard'];
const THINGS = ['lighthouse', 'garden', 'museum', 'bakery', 'old railway', 'festival', 'library', 'bridge', 'newsletter', 'volunteer'];

export interface DialogueDataOptions {
  worlds: number;
  sessionsPerWorld: number;
  turnsPerSession: number;
  questionsPerWorld: number;
  seed?: number;
}

/** A small seeded generator (mulberry32): the same seed, the same benchmark. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

/** Small talk of varied length: one to three sentences, sometimes addressed to the other speaker. */
function smallTalk(rand: () => number, other: string): string {
  const n = 1 + Math.floor(rand() * 1.9);
  const fill = (t: string) =>
    t
      .replace('{day}', pick(rand, DAYS))
      .replace('{place}', pick(rand, PLACES))
      .replace('{thing}', pick(rand, THINGS))
      .replace('{n}', String(2 + Math.floor(rand() * 88)));
  const parts = Array.from({ length: n }, () => fill(pick(rand, SMALL_TALK)));
  return (rand() < 0.3 ? `${other}, ` : '') + parts.join(' ');
}

/** The benchmark as JSON lines: a header, then one line per world. */
export function dialogueDataJsonl(o: DialogueDataOptions): string {
  const rand = random(o.seed ?? 1);
  const lines = [
    JSON.stringify({
      type: 'dataset',
      name: 'generated-dialogue',
      description: 'Generated chats between two friends over many sessions; questions about facts each stated once.',
      scoring: 'evidence-recall',
    }),
  ];
  for (let w = 0; w < o.worlds; w++) {
    const a = NAMES[(2 * w) % NAMES.length] as string;
    const b = NAMES[(2 * w + 1) % NAMES.length] as string;
    const facts: { turn: string; question: string }[] = [];
    const sessions = Array.from({ length: o.sessionsPerWorld }, (_, s) => {
      const turns = Array.from({ length: o.turnsPerSession }, (_, t) => {
        const speaker = t % 2 === 0 ? a : b;
        const id = `s${s + 1}:${t + 1}`;
        // About questionsPerWorld facts per world, spread over its sessions.
        const factChance = o.questionsPerWorld / (o.sessionsPerWorld * o.turnsPerSession);
        if (facts.length < o.questionsPerWorld && rand() < factChance * 1.5) {
          const kind = Math.floor(rand() * FACTS.length);
          const [text, question] = (FACTS[kind] as (typeof FACTS)[number])(pick(rand, VALUES[kind] as string[]));
          facts.push({ turn: id, question: `${question(speaker)} (as of session ${s + 1})` });
          return { id, speaker, text };
        }
        return { id, speaker, text: smallTalk(rand, speaker === a ? b : a) };
      });
      const time = new Date(Date.UTC(2024, 0, 1) + (w * 400 + s * 3) * 86_400_000).toISOString();
      return { time, turns };
    });
    const questions = facts.map((f, q) => ({ id: `w${w + 1}q${q + 1}`, question: f.question, scenario: 'facts', evidence: [f.turn] }));
    lines.push(JSON.stringify({ type: 'world', id: `w${w + 1}`, speakers: [a, b], sessions, questions }));
  }
  return `${lines.join('\n')}\n`;
}

/** Every turn's text in the order the benchmark holds them (for timing the embedder on the same texts). */
export function dialogueTexts(jsonl: string): string[] {
  const out: string[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as { type: string; sessions?: { turns: { speaker: string; text: string }[] }[] };
    for (const s of rec.sessions ?? []) for (const t of s.turns) out.push(`${t.speaker}: ${t.text}`);
  }
  return out;
}
