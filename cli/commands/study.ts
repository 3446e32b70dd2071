// automemo study: repeated searches, the floor, the transfer matrix and the statistics in one study folder
// (api/study.ts); this file is its arguments and what it prints as it goes.
import { relative } from 'node:path';
import { z } from 'zod';
import { environments } from '../../api/environments.ts';
import { study, type StudyPhase, type StudyResult } from '../../api/study.ts';
import { MAX_REPEAT } from '../../api/limits.ts';
import { intOption, parse, protocolField, protocolUsage, UsageError } from '../args.ts';
import { defaultWorkers } from '../../api/worker-count.ts';
import { MAX_WORKERS } from '../../api/limits.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStderr, toStdout } from '../terminal.ts';

export const usage = `automemo study --env <env> [--env <env> ...] --out DIR [options]
automemo study --resume --out DIR

Runs a study a paper can report, in one folder: per environment the standard
designs on test and validation (the floor), --repeat searches with run seeds
seed, seed+1, ... (one test split for all), each pick evaluated on every
environment's test split (the transfer matrix), and the statistics: the picks'
mean ± 95% interval across seeds, each pick against the best design task by
task (bootstrap interval, wins/ties/losses, permutation and sign tests). Writes
study.json and, from it, study.md, study.csv, study.tex and study.html.

Options:
  --env ENV           an environment (repeat for several; a,b,c composes
                      several into one benchmark), one of:
${environments.help('                        ')}
  --out DIR           the study folder (new or empty; with --resume, the study)
  --resume            continue the study in --out: finished pieces are read
                      back, each unfinished search resumes from its journal
  --repeat N          searches per environment, each its own run seed
                      (default 3; not --seeds, the seed programs)
  --seed N            the first run seed (default 0)
  --split-seed N      the split every search, the floor and the transfer
                      share (default 0)
  --budget N          steps per search (default 12)
  --meta KIND         model or offline (default: model when AUTOMEMO_META_MODEL
                      is set, else offline)
  --seeds A,B         each search's seed programs (default auto: the screen)
  --designs A,B       the floor's designs (default the 7 standard designs)
${protocolUsage(22)}
  --joint             also one search over every environment composed into one
  --no-transfer       skip the transfer matrix
  --eval-fraction F   share of validation tasks per evaluation (default 0.5)
  --min-eval-tasks N  but at least N of them (default 30)
  --parallel K        steps in flight per search (default 1)
  --data DIR          the environments' data folder
  --workers N         local worker processes (default: cores - 1, at least 1)
  --queue URL         evaluate on \`automemo worker --queue URL\` processes
  --json              print the study's analysis as JSON`;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'study takes no positional arguments: give each environment with --env'),
  env: z.array(z.string()).optional(),
  out: z.string({ error: 'give --out: the study folder' }),
  resume: z.boolean().optional(),
  repeat: intOption(1, MAX_REPEAT),
  seed: intOption(0, 2 ** 31 - 1),
  'split-seed': intOption(0, 2 ** 31 - 1),
  budget: intOption(0, 10_000),
  meta: z.enum(['model', 'offline']).optional(),
  seeds: z.string().optional(),
  designs: z.string().optional(),
  protocol: protocolField(),
  joint: z.boolean().optional(),
  'no-transfer': z.boolean().optional(),
  'eval-fraction': z.coerce.number().gt(0).max(1).optional(),
  'min-eval-tasks': intOption(0, 100_000),
  parallel: intOption(1, 16),
  data: z.string().optional(),
  workers: intOption(0, MAX_WORKERS),
  queue: z.string().optional(),
  json: z.boolean().optional(),
});

const list = (s: string | undefined) => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter(Boolean));

function phaseLine(p: StudyPhase, envs: string[]): string | undefined {
  const name = (i: number) => envs[i] ?? (i === envs.length ? 'joint' : `environment ${i}`);
  if (p.kind === 'floor') return `floor: ${p.programs.join(', ')} on ${name(p.env)} (${p.split === 'test' ? 'test' : 'validation'})`;
  if (p.kind === 'search') return `search: ${name(p.env)}, run seed ${p.seed}${p.resumed ? ' (resumed)' : ''}`;
  if (p.kind === 'readers') return `other readers: ${name(p.env)}`;
  if (p.kind === 'transfer') return `transfer: ${name(p.env)}'s pick of seed ${p.seed} on ${name(p.target)}`;
  return undefined;
}

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    {
      env: { type: 'string', multiple: true },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      repeat: { type: 'string' },
      seed: { type: 'string' },
      'split-seed': { type: 'string' },
      budget: { type: 'string' },
      meta: { type: 'string' },
      seeds: { type: 'string' },
      designs: { type: 'string' },
      protocol: { type: 'string' },
      joint: { type: 'boolean' },
      'no-transfer': { type: 'boolean' },
      'eval-fraction': { type: 'string' },
      'min-eval-tasks': { type: 'string' },
      parallel: { type: 'string' },
      data: { type: 'string' },
      workers: { type: 'string' },
      queue: { type: 'string' },
      json: { type: 'boolean' },
    },
    Args,
  );
  if (!a.resume && !a.env?.length) throw new UsageError('give --env (once per environment), or --resume --out <study folder>');
  const seeds = a.seeds === undefined || a.seeds === 'auto' ? undefined : a.seeds === 'none' ? [] : list(a.seeds);
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    toStderr(`\nautomemo study: stopping; continue with: automemo study --resume --out '${a.out}'\n`);
    abort.abort(new Error('interrupted by the user (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  const envs = a.env ?? [];
  const started = Date.now();
  let result: StudyResult;
  try {
    result = await study({
      ...(a.env ? { env: a.env } : {}),
      out: a.out,
      ...(a.resume ? { resume: true } : {}),
      ...(a.repeat !== undefined ? { repeat: a.repeat } : {}),
      ...(a.seed !== undefined ? { seed: a.seed } : {}),
      ...(a['split-seed'] !== undefined ? { splitSeed: a['split-seed'] } : {}),
      ...(a.budget !== undefined ? { budget: a.budget } : {}),
      ...(a.meta ? { meta: a.meta } : {}),
      ...(seeds ? { seeds } : {}),
      ...(a.designs ? { designs: list(a.designs) as string[] } : {}),
      ...(a.protocol ? { protocol: a.protocol } : {}),
      ...(a.joint ? { joint: true } : {}),
      ...(a['no-transfer'] ? { transfer: false } : {}),
      ...(a['eval-fraction'] !== undefined ? { evalFraction: a['eval-fraction'] } : {}),
      ...(a['min-eval-tasks'] !== undefined ? { minEvalTasks: a['min-eval-tasks'] } : {}),
      ...(a.parallel !== undefined ? { parallel: a.parallel } : {}),
      ...(a.data ? { data: a.data } : {}),
      ...(a.queue ? { queue: a.queue } : { workers: a.workers ?? defaultWorkers() }),
      signal: abort.signal,
      onNote: noteToStderr,
      onPhase: (p) => {
        const line = phaseLine(p, envs);
        if (line && !a.json) toStderr(`automemo study: ${line} (${Math.round((Date.now() - started) / 1000)} s)\n`);
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (a.json) toStdout(`${JSON.stringify(result.analysis, null, 2)}\n`);
  else {
    const where = relative(process.cwd(), result.folder) || result.folder;
    const lines = [`${bold('automemo study')} — ${result.study.status}; wall time ${Math.round((result.study.wallMs ?? 0) / 1000)} s; ${result.study.protocol}`];
    for (const e of result.analysis.envs) {
      if (e.error) lines.push(`  ${e.name}: not run — ${e.error}`);
      else lines.push(`  ${e.name}: best design ${e.best ? `${e.best.program} ${e.best.test?.toFixed(3) ?? '—'}` : '—'}; picks on test ${e.picksTest.n ? `${e.picksTest.mean.toFixed(3)}${e.picksTest.halfWidth !== undefined ? ` ± ${e.picksTest.halfWidth.toFixed(3)}` : ''} (n = ${e.picksTest.n})` : '—'}`);
    }
    lines.push(`study folder: ${where} (study.md, study.csv, study.tex, study.html; automemo view ${where} shows it)`);
    toStdout(`${lines.join('\n')}\n`);
  }
  return result.interrupted ? 130 : result.analysis.envs.some((e) => e.error) ? 1 : 0;
}
