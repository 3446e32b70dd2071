// An evaluation's evidence lives in evidence/<node>/<split>-<index>/, and the search reads the folder of a node's
// latest scored evaluation back (the meta agent's evidence). Two kinds of folder must not stay in that place:
// one of an evaluation that scored nothing (the index is still owed a score), and one left by an evaluation that
// no finished step recorded (the process was killed, or infrastructure stopped the search) — writing into it again
// would mix two evaluations' lines. Both are moved aside, kept, never deleted. The same holds for a job retried after
// its worker died ('retried'), for `eval`/`baselines` writing where an earlier run wrote ('previous'), and for a
// child whose first evaluation showed it changes nothing ('no-op').
import { existsSync, renameSync } from 'node:fs';

export type AsideReason = 'unscored' | 'interrupted' | 'retried' | 'previous' | 'no-op';

/** Moves `dir` to `<dir>-<why>-<i>` (the first free i); returns where it now is (`dir` itself when absent). */
export function setAsideEvidence(dir: string, why: AsideReason): string {
  if (!existsSync(dir)) return dir;
  let i = 1;
  while (existsSync(`${dir}-${why}-${i}`)) i++;
  const aside = `${dir}-${why}-${i}`;
  renameSync(dir, aside);
  return aside;
}
