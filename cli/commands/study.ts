// automemo study: repeated searches, the floor, the transfer matrix and the statistics in one study folder
// (api/study.ts); this file is its arguments and what it prints as it goes.
import { relative } from 'node:path';
import { z } from 'zod';
import { study, type StudyPhase, type StudyResult } from '../../api/study.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { parse, UsageError } from '../args.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStderr, toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'study',
  `automemo study --env <env> [--env <env> ...] --out DIR [options]
automemo study --resume --out DIR

Runs a study a paper can report, in one folder: per environment the standard
designs on test and validation (the floor), --repeat searches with run seeds
seed, seed+1, ... (one test split for all), each pick evaluated on every
environment's test split (the transfer matrix), and the statistics: the picks'
mean ± 95% interval across seeds, each pick against the best design task by
task (bootstrap interval, wins/ties/losses, permutation and sign tests). Writes
study.json and, from it, study.md, study.csv, study.tex and study.html.`,
);

function phaseLine(p: StudyPhase, envs: string[]): string | undefined {
  const name = (i: number) => envs[i] ?? (i === envs.length ? 'joint' : `environment ${i}`);
  if (p.kind === 'floor')
    return `floor: ${p.programs.join(', ')} on ${name(p.env)} (${p.split === 'test' ? 'test' : 'validation'})`;
  if (p.kind === 'search') return `search: ${name(p.env)}, run seed ${p.seed}${p.resumed ? ' (resumed)' : ''}`;
  if (p.kind === 'readers') return `other readers: ${name(p.env)}`;
  if (p.kind === 'transfer') return `transfer: ${name(p.env)}'s pick of seed ${p.seed} on ${name(p.target)}`;
  return undefined;
}

export async function run(argv: string[]): Promise<number> {
  const positionals = z
    .array(z.string())
    .max(0, 'study takes no positional arguments: give each environment with --env');
  const { json, positionals: _, ...a } = parse('study', argv, { positionals });
  if (!a.resume && !a.env?.length)
    throw new UsageError('give --env (once per environment), or --resume --out <study folder>');
  const out = a.out;
  if (!out) throw new UsageError('give --out: the study folder');
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    toStderr(`\nautomemo study: stopping; continue with: automemo study --resume --out '${out}'\n`);
    abort.abort(new Error('interrupted by the user (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  const envs = a.env ?? [];
  const started = Date.now();
  let result: StudyResult;
  try {
    result = await study({
      ...a,
      out,
      signal: abort.signal,
      onNote: noteToStderr,
      onPhase: (p) => {
        const line = phaseLine(p, envs);
        if (line && !json) toStderr(`automemo study: ${line} (${Math.round((Date.now() - started) / 1000)} s)\n`);
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (json) toStdout(`${JSON.stringify(result.analysis, null, 2)}\n`);
  else {
    const where = relative(process.cwd(), result.folder) || result.folder;
    const lines = [
      `${bold('automemo study')} — ${result.study.status}; wall time ${Math.round((result.study.wallMs ?? 0) / 1000)} s; ${result.study.protocol}`,
    ];
    for (const e of result.analysis.envs) {
      if (e.error) lines.push(`  ${e.name}: not run — ${e.error}`);
      else
        lines.push(
          `  ${e.name}: best design ${e.best ? `${e.best.program} ${e.best.test?.toFixed(3) ?? '—'}` : '—'}; picks on test ${e.picksTest.n ? `${e.picksTest.mean.toFixed(3)}${e.picksTest.halfWidth !== undefined ? ` ± ${e.picksTest.halfWidth.toFixed(3)}` : ''} (n = ${e.picksTest.n})` : '—'}`,
        );
    }
    lines.push(`study folder: ${where} (study.md, study.csv, study.tex, study.html; automemo view ${where} shows it)`);
    toStdout(`${lines.join('\n')}\n`);
  }
  return result.interrupted ? 130 : result.analysis.envs.some((e) => e.error) ? 1 : 0;
}
