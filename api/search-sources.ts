// A search's pick by source, for an environment composed of several (--env a,b,c): each source's score on the
// validation the pick was scored on (the mean over its evaluations) and on test, read from the journal's evaluation
// events (their statistics carry the split by source, engine/evaluate/stats.ts). Nothing for one source.
import { z } from 'zod';
import { readJournal } from '../run-store/journal.ts';

const BySource = z.record(z.string().max(200), z.object({ tasks: z.number(), score: z.number().nullable() }).loose());

export interface SourceScores {
  validation: Record<string, number | null>;
  test?: Record<string, number | null>;
}

export function sourceScoresOf(journalPath: string, node: string): SourceScores | undefined {
  const train: Record<string, number[]> = {};
  let test: Record<string, number | null> | undefined;
  for (const e of readJournal(journalPath).events) {
    if (e.type !== 'evaluation' || e.node !== node || e.score === null) continue;
    const by = BySource.safeParse(e.stats.bySource);
    if (!by.success) continue;
    if (e.split === 'test') test = Object.fromEntries(Object.entries(by.data).map(([s, v]) => [s, v.score]));
    else for (const [s, v] of Object.entries(by.data)) if (v.score !== null) (train[s] ??= []).push(v.score);
  }
  if (!Object.keys(train).length && !test) return undefined;
  const validation = Object.fromEntries(Object.entries(train).map(([s, xs]) => [s, xs.reduce((a, b) => a + b, 0) / xs.length]));
  return { validation, ...(test ? { test } : {}) };
}
