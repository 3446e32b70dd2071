// The benchmarks bench:search runs the offline search on: LoCoMo (real dialogue data) and three small benchmarks of
// other shapes written for the bench and never used to tune the offline agent — a procedural module family with
// several worlds, a data-file QA set scored by answer containment, and a multiple-choice set.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChoices } from './choices.ts';
import { writeTeamLogs } from './team-logs.ts';
import { writeBookClub } from './dev/book-club.ts';
import { writeHouseNotes } from './dev/house-notes.ts';

export interface BenchBenchmark {
  name: string;
  /** Its shape, in a few words. */
  shape: string;
  /** The --env value, after writing any data it needs into `dir` (a folder the bench made). */
  prepare(dir: string): string;
}

const here = fileURLToPath(new URL('.', import.meta.url));

export const BENCHMARKS: BenchBenchmark[] = [
  { name: 'locomo', shape: 'dialogue memory (real data), evidence recall', prepare: () => 'locomo' },
  { name: 'workshops', shape: 'procedural module, 8 worlds, 1 / attempts', prepare: () => join(here, 'workshops.ts') },
  {
    name: 'team-logs',
    shape: 'data-file QA, answer containment',
    prepare: (dir) => {
      const path = join(dir, 'team-logs.jsonl');
      writeTeamLogs(path, 7);
      return `data:${path}`;
    },
  },
  {
    name: 'friends-choices',
    shape: 'data-file multiple choice',
    prepare: (dir) => {
      const path = join(dir, 'friends-choices.jsonl');
      writeChoices(path, 11);
      return `data:${path}`;
    },
  },
];

/** The development benchmarks: the offline agent was tuned on these (and on LoCoMo's demo), never on those above. */
export const DEV_BENCHMARKS: BenchBenchmark[] = [
  { name: 'vaults', shape: 'procedural module, 1 world, stated split', prepare: () => join(here, '..', '..', 'examples', 'vault-env', 'env.ts') },
  { name: 'quests', shape: 'procedural module, 5 worlds', prepare: () => join(here, 'dev', 'quests.ts') },
  {
    name: 'house-notes',
    shape: 'data-file notes without speakers, answer containment',
    prepare: (dir) => {
      const path = join(dir, 'house-notes.jsonl');
      writeHouseNotes(path, 3);
      return `data:${path}`;
    },
  },
  {
    name: 'book-club',
    shape: 'data-file multiple choice, group chat',
    prepare: (dir) => {
      const path = join(dir, 'book-club.jsonl');
      writeBookClub(path, 5);
      return `data:${path}`;
    },
  },
];
