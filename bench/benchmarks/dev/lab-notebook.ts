// A benchmark of two-hop and aggregate questions in the data format, scored by evidence recall (every evidence turn
// must be in the payload): a lab's notebook over weeks, where a project's instrument is named in one entry and where
// that instrument is kept in another, weeks apart, and samples are logged in batches across sessions. Questions ask
// for one fact (one turn), a two-hop fact (both turns: neither names the other's subject) or a total (every batch of
// a project). Many entries name the same projects and instruments without answering anything. A development benchmark:
// the offline search tied its seed here (no stage could reach a second fact), which is why lib's hopExpand and the
// agent's "split" pressure (one fact found, another missed) exist.
import { writeFileSync } from 'node:fs';
import { rng } from '../random.ts';

const PROJECTS = ['Aster', 'Borealis', 'Cinder', 'Dune', 'Ember', 'Fjord', 'Grove', 'Helix', 'Iris', 'Juniper'];
const INSTRUMENTS = [
  'the mass spectrometer',
  'the confocal microscope',
  'the centrifuge',
  'the plate reader',
  'the sequencer',
  'the cryostat',
  'the flow cytometer',
  'the spectrophotometer',
];
const ROOMS = [
  'room 101',
  'room 114',
  'the basement lab',
  'the cold room',
  'room 209',
  'the annex',
  'room 330',
  'the clean room',
];
const STAFF = ['Ana', 'Bo', 'Chen', 'Dara', 'Emil', 'Farah', 'Gil', 'Hugo'];
const NOISE = [
  '{p} meeting moved to Thursday, agenda unchanged',
  'calibration of {i} is due next month',
  'someone left {i} running overnight again',
  '{p} budget review pending with the department',
  'ordered more gloves and pipette tips for {p}',
  'the booking sheet for {i} is full this week',
  '{p} draft figures look noisy, rerun planned',
  'service contract for {i} renewed',
];

interface Turn {
  id: string;
  speaker: string;
  text: string;
}

export function labNotebook(seed: number, worlds = 12, sessions = 12): string {
  const r = rng(seed);
  const lines: string[] = [
    JSON.stringify({
      type: 'dataset',
      name: 'lab-notebook',
      description:
        "A research lab's shared notebook over weeks, then questions whose evidence is one entry, two entries weeks apart (which instrument a project uses; where that instrument is kept), or every batch of samples a project logged.",
      scoring: 'evidence-recall',
      budget: { maxChars: 900, maxImages: 0 },
    }),
  ];
  for (let w = 0; w < worlds; w++) {
    const staff = r.shuffle(STAFF).slice(0, 3);
    const projects = r.shuffle(PROJECTS).slice(0, 4);
    const instruments = r.shuffle(INSTRUMENTS).slice(0, 4);
    const rooms = r.shuffle(ROOMS).slice(0, 4);
    const bySession: Turn[][] = Array.from({ length: sessions }, () => []);
    const log = (s: number, text: string) => {
      const turn = { id: `s${s + 1}:${(bySession[s] as Turn[]).length + 1}`, speaker: r.pick(staff), text };
      (bySession[s] as Turn[]).push(turn);
      return turn;
    };
    const questions: unknown[] = [];
    projects.forEach((p, k) => {
      const instrument = instruments[k] as string;
      const room = rooms[k] as string;
      const useTurn = log(r.int(4), `Project ${p} will run all its measurements on ${instrument}.`);
      const roomTurn = log(5 + r.int(sessions - 5), `Moved ${instrument} to ${room} after the renovation.`);
      questions.push({
        id: `w${w}-${p}-instrument`,
        question: `Which instrument does project ${p} use?`,
        scenario: 'one fact',
        evidence: [useTurn.id],
      });
      questions.push({
        id: `w${w}-${p}-room`,
        question: `In which room is the instrument project ${p} uses kept now?`,
        scenario: 'two hops',
        evidence: [useTurn.id, roomTurn.id],
      });
      const batches = 2 + r.int(3);
      const batchTurns = Array.from({ length: batches }, () =>
        log(r.int(sessions), `Logged ${5 + r.int(40)} samples for ${p} today.`),
      );
      questions.push({
        id: `w${w}-${p}-total`,
        question: `How many samples has project ${p} logged in total?`,
        scenario: 'total',
        evidence: batchTurns.map((t) => t.id),
      });
    });
    for (let s = 0; s < sessions; s++) {
      for (let n = 0; n < 6; n++)
        log(
          s,
          (r.pick(NOISE) as string)
            .replace('{p}', `project ${r.pick(projects)}`)
            .replace('{i}', r.pick(instruments) as string),
        );
    }
    const start = Date.UTC(2025, r.int(10), 1 + r.int(20), 10);
    lines.push(
      JSON.stringify({
        type: 'world',
        id: `lab-${w + 1}`,
        speakers: staff,
        sessions: bySession.map((turns, s) => ({
          time: new Date(start + s * 7 * 86_400_000).toISOString(),
          turns: r.shuffle(turns),
        })),
        questions,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeLabNotebook(path: string, seed: number): void {
  writeFileSync(path, labNotebook(seed));
}
