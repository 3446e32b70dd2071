// A development benchmark (the offline agent is tuned on these, never on bench:search's own): a household's notes, one
// session per fortnight, no speakers. Facts about appliances and chores are written once, some change (the wifi
// password, who waters the plants, the bin day), some are dated (when the boiler was serviced). Answer containment in a
// small payload.
import { writeFileSync } from 'node:fs';
import { rng } from '../random.ts';

const APPLIANCES = ['boiler', 'fridge', 'washer', 'dryer', 'oven', 'dishwasher'];
const BRANDS = ['Bosch', 'Miele', 'Zanussi', 'Beko', 'Smeg', 'Hotpoint', 'Vaillant', 'Siemens'];
const PEOPLE = ['Rosa', 'Ilya', 'Theo', 'Mina', 'the neighbour', 'the cleaner'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const FILLER = [
  'Bought more light bulbs.',
  'The wifi was slow again tonight.',
  'The plants by the window look dry.',
  'Bins were not collected, the lorry was late.',
  'Paid the council tax.',
  'Cat knocked over the plant again.',
  'Reminder to book someone to service the {a}.',
  'The {a} makes a noise but works.',
  'Read the {a} manual again, the brand site is useless.',
  'Who changed the router settings?',
];

export function houseNotes(seed: number, worlds = 12, sessions = 9): string {
  const r = rng(seed);
  const out = [
    JSON.stringify({
      type: 'dataset',
      name: 'house-notes',
      scoring: 'answer-containment',
      budget: { maxChars: 400, maxImages: 0 },
      description: 'A household keeps notes; questions ask about appliances and chores.',
    }),
  ];
  for (let w = 0; w < worlds; w++) {
    const start = Date.UTC(2022, r.int(12), 1 + r.int(20), 20);
    const sessionsTurns: { id: string; text: string }[][] = Array.from({ length: sessions }, () => []);
    const note = (s: number, text: string) => {
      const t = { id: `n${s}-${sessionsTurns[s]!.length}`, text };
      sessionsTurns[s]!.push(t);
      return t;
    };
    const questions: unknown[] = [];
    for (const a of r.shuffle(APPLIANCES).slice(0, 3)) {
      const brand = r.pick(BRANDS);
      const t = note(r.int(sessions), `The ${a} is a ${brand}, warranty card is in the drawer.`);
      questions.push({
        id: `h${w}-${a}-brand`,
        question: `What brand is the ${a}?`,
        scenario: 'facts',
        answers: [brand],
        evidence: [t.id],
      });
      const s = r.int(sessions);
      const svc = note(s, `Technician serviced the ${a} today.`);
      const d = new Date(start + s * 14 * 86_400_000);
      questions.push({
        id: `h${w}-${a}-service`,
        question: `When was the ${a} serviced?`,
        scenario: 'dates',
        answers: [
          `${d.getUTCDate()} ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][d.getUTCMonth()]} ${d.getUTCFullYear()}`,
        ],
        evidence: [svc.id],
      });
    }
    let pw = '';
    let pwTurn = { id: '' };
    for (let k = 0, s = r.int(2); s < sessions; k++, s += 2 + r.int(3)) {
      pw = `${r.pick(['blue', 'tiger', 'maple', 'orbit'])}-${100 + r.int(900)}`;
      pwTurn = note(s, k === 0 ? `Wifi password is ${pw}.` : `Changed the wifi password to ${pw}.`);
    }
    questions.push({
      id: `h${w}-wifi`,
      question: 'What is the wifi password now?',
      scenario: 'changes',
      answers: [pw],
      evidence: [pwTurn.id],
    });
    let who = '';
    let whoTurn = { id: '' };
    for (let s = r.int(3); s < sessions; s += 3 + r.int(3)) {
      who = r.pick(PEOPLE);
      whoTurn = note(s, `From now on ${who} waters the plants.`);
    }
    questions.push({
      id: `h${w}-plants`,
      question: 'Who waters the plants now?',
      scenario: 'changes',
      answers: [who],
      evidence: [whoTurn.id],
    });
    const bin = r.pick(DAYS);
    const binTurn = note(sessions - 1 - r.int(3), `Bins now go out on ${bin}.`);
    questions.push({
      id: `h${w}-bins`,
      question: 'Which day do the bins go out?',
      scenario: 'changes',
      answers: [bin],
      evidence: [binTurn.id],
    });
    for (let s = 0; s < sessions; s++)
      for (let k = 0; k < 9; k++) note(s, r.pick(FILLER).replace('{a}', r.pick(APPLIANCES)));
    out.push(
      JSON.stringify({
        type: 'world',
        id: `house-${w}`,
        sessions: sessionsTurns.map((turns, s) => ({ time: start + s * 14 * 86_400_000, turns: r.shuffle(turns) })),
        questions,
      }),
    );
  }
  return `${out.join('\n')}\n`;
}

export const writeHouseNotes = (path: string, seed: number) => writeFileSync(path, houseNotes(seed));
