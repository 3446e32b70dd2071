// The benchmarks bench:search runs the offline search on: LoCoMo (real dialogue data) and small benchmarks of other
// shapes written for the bench and never used to tune the offline agent — a procedural module family with several
// worlds, a data-file QA set scored by answer containment, and a multiple-choice set; and, written and frozen before
// issue 39's agent changes were measured on them, a help desk whose customers' conventions are revealed only in the
// outcome's feedback, multiple choice over long user–assistant histories, and intranets whose chores need a
// per-chore procedure and site-wide quirks learned from other chores.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChoices } from './choices.ts';
import { writeLongChats } from './long-chats.ts';
import { writeTeamLogs } from './team-logs.ts';
import { writeBookClub } from './dev/book-club.ts';
import { writeHouseNotes } from './dev/house-notes.ts';
import { writeLabNotebook } from './dev/lab-notebook.ts';

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
  { name: 'help-desk', shape: 'module, 6 worlds, feedback in outcome.note', prepare: () => join(here, 'help-desk.ts') },
  {
    name: 'long-chats',
    shape: 'data-file multiple choice, long histories',
    prepare: (dir) => {
      const path = join(dir, 'long-chats.jsonl');
      writeLongChats(path, 17);
      return `data:${path}`;
    },
  },
  { name: 'intranets', shape: 'procedural module, 12 worlds, per-chore and site-wide', prepare: () => join(here, 'intranets.ts') },
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
  {
    name: 'lab-notebook',
    shape: 'data-file two-hop and totals, evidence recall',
    prepare: (dir) => {
      const path = join(dir, 'lab-notebook.jsonl');
      writeLabNotebook(path, 13);
      return `data:${path}`;
    },
  },
];
