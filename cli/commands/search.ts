// automemo search: the budget-aware tree search over memo programs (api/search.ts), with a run folder that can
// be resumed; this file is its arguments, its terminal progress and its summary table.
import { isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { environments } from '../../api/environments.ts';
import { MAX_PARALLEL, MAX_SEEDS, POLICY_NAMES, search, type SearchResult, seedsOf } from '../../api/search.ts';
import type { JournalEvent, RunOptions, SearchProgress, ValidationPlan } from '../../api/index.ts';
import { evaluationPlace, intOption, parse, protocolField, protocolUsage, SEED_OPTIONS, seedArgs, seedFields, seedUsage, UsageError } from '../args.ts';
import { protocolStatement } from '../../api/limits.ts';
import { MAX_WORKERS } from '../../api/workers.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { didYouMean } from '../../foundation/closest.ts';
import { progressPrinter } from '../progress.ts';
import { fmt, stepProgress } from '../search-progress.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = `automemo search --env <env> [options]

Budget-aware UCB tree search over memo programs. Step 0 evaluates the no-memory
root and the seeds (by default the best 3 standard designs, screened on
validation); each step then re-evaluates a program or has the meta agent write
a child (quick-examined, repaired up to 3 times, evaluated). The program with
the best lower confidence bound is evaluated on the held-out test split.

Options:
  --env ENV           the environment, one of:
${environments.help('                        ')}
  --budget N          steps after the seeds (default 20)
  --seeds A,B         seed programs, by name or path; "auto" (default) screens
                      the standard designs (the baselines and pipeline) on
                      validation and keeps the best 3; "none" for none; a
                      seed's node is seed-<its name>
  --meta KIND         model or offline (default: model when AUTOMEMO_META_MODEL is
                      set, else offline)
  --out DIR           run folder (default search-trees/runs/search-<time>)
  --resume            continue the run in --out from its journal
  --trust-run         with --resume: run the environment module a run folder
                      names even when this user's automemo did not make the
                      run (a folder from someone else); without it such a run
                      is refused before any of its code runs
  --max-usd X         stop cleanly once the models have cost this much
${seedUsage(22)}
  --policy P          ucb (default), greedy, random, alma-softmax
  --select S          lcb (default) or max-mean
  --eval-fraction F   share of validation tasks per evaluation (default 0.5)
  --min-eval-tasks N  but at least N of them (default 30; all when fewer):
                      fewer tasks cannot tell programs apart
  --parallel K        steps in flight at once (default 1; at most 16): each
                      step's model calls overlap the others' evaluations
  --workers N         local worker processes evaluating programs (default:
                      cores - 1, at least 1; 0 evaluates in this process)
  --queue URL         evaluate on \`automemo worker --queue URL\` processes
                      through Redis (redis://[:password@]host:port, rediss://
                      for TLS); see the README's "Scaling out"
  --clusters C        with a model: clue (default; the model summarises each
                      task's scenario and keeps a cluster pool) or metadata
                      (the environment's groups: site, template, category)
  --data DIR          the environment's data folder
  --strict            a data: benchmark must load whole: a world left out
                      by a bad field, or a line that is not JSON, is an
                      error (exit 1, naming file:line), not a note
${protocolUsage(22)}
  --no-test           skip the final test-split evaluation
  --json              print the summary as JSON`;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'search takes no positional arguments'),
  env: z.string().optional(),
  budget: intOption(0, 10_000),
  seeds: z.string().optional(),
  meta: z.enum(['model', 'offline']).optional(),
  out: z.string().optional(),
  resume: z.boolean().optional(),
  'trust-run': z.boolean().optional(),
  'max-usd': z.coerce.number().positive().optional(),
  ...seedFields(),
  policy: z.enum(POLICY_NAMES, { error: (iss) => `unknown policy ${JSON.stringify(String(iss.input).slice(0, 50))}${didYouMean(String(iss.input), POLICY_NAMES)}; known: ${POLICY_NAMES.join(', ')}` }).optional(),
  select: z.enum(['lcb', 'max-mean']).optional(),
  'eval-fraction': z.coerce.number().gt(0).max(1).optional(),
  'min-eval-tasks': intOption(0, 100_000),
  parallel: intOption(1, MAX_PARALLEL),
  clusters: z.enum(['clue', 'metadata']).optional(),
  workers: intOption(0, MAX_WORKERS),
  queue: z.string().optional(),
  data: z.string().optional(),
  strict: z.boolean().optional(),
  'no-test': z.boolean().optional(),
  protocol: protocolField(),
  json: z.boolean().optional(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    {
      env: { type: 'string' },
      budget: { type: 'string' },
      seeds: { type: 'string' },
      meta: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      'trust-run': { type: 'boolean' },
      'max-usd': { type: 'string' },
      ...SEED_OPTIONS,
      policy: { type: 'string' },
      select: { type: 'string' },
      'eval-fraction': { type: 'string' },
      'min-eval-tasks': { type: 'string' },
      parallel: { type: 'string' },
      clusters: { type: 'string' },
      workers: { type: 'string' },
      queue: { type: 'string' },
      data: { type: 'string' },
      strict: { type: 'boolean' },
      'no-test': { type: 'boolean' },
      protocol: { type: 'string' },
      json: { type: 'boolean' },
    },
    Args,
  );
  return searchCommand(a);
}

export async function searchCommand(a: z.infer<typeof Args>, label = 'automemo search'): Promise<number> {
  if (!a.resume && !a.env) throw new UsageError('give --env');
  const seeds = a.seeds === undefined || a.seeds === 'auto' ? undefined : a.seeds === 'none' ? [] : a.seeds.split(',').map((s) => s.trim());
  // Counted before any is looked at; each becomes a node with a safe id (engine/search/node-ids.ts), never a path.
  if (seeds && seeds.length > MAX_SEEDS)
    throw new UsageError(`--seeds takes at most ${MAX_SEEDS} programs; got ${seeds.length}`);
  if (seeds?.some((s) => s === ''))
    throw new UsageError('--seeds has an empty name: give program names or paths separated by commas, "auto" or "none"');
  if (a.resume && !a.out) throw new UsageError('--resume needs --out, the run folder to continue');
  // Named by their flags here; the API checks them again in its own words.
  if (a.meta === 'model' && !resolveModels().meta) throw new UsageError('--meta model needs a model: set AUTOMEMO_META_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
  // Ctrl-C stops the search cleanly (journaled, resumable); a second one leaves at once.
  const abort = new AbortController();
  // The run's folder once the search has one (onStart); before that, the folder asked for, if any.
  let runFolder = a.out;
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    const resume = runFolder ? `continue with: automemo search --resume --out ${shellWord(shownPath(runFolder))}` : 'no run folder was started yet';
    toStderr(`\n${label}: stopping (the step in flight is abandoned); ${resume}\n`);
    abort.abort(new Error('interrupted by the user (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  let options: RunOptions | undefined;
  let onEvent: ((e: JournalEvent, s: SearchProgress) => void) | undefined;
  try {
    const result = await search({
      ...(a.env ? { env: a.env } : {}),
      ...(a.out ? { out: a.out } : {}),
      ...(a.resume ? { resume: true } : {}),
      ...(a['trust-run'] ? { trustRun: true } : {}),
      ...(a.budget !== undefined ? { budget: a.budget } : {}),
      ...(seeds ? { seeds } : {}),
      ...(a.meta ? { meta: a.meta } : {}),
      ...(a['max-usd'] ? { maxUsd: a['max-usd'] } : {}),
      ...seedArgs(a),
      ...(a.policy ? { policy: a.policy } : {}),
      ...(a.select ? { select: a.select } : {}),
      ...(a['eval-fraction'] ? { evalFraction: a['eval-fraction'] } : {}),
      ...(a['min-eval-tasks'] !== undefined ? { minEvalTasks: a['min-eval-tasks'] } : {}),
      ...(a.parallel !== undefined ? { parallel: a.parallel } : {}),
      ...(a.clusters ? { clustering: a.clusters } : {}),
      ...evaluationPlace(a),
      ...(a.data ? { data: a.data } : {}),
      ...(a.strict ? { strict: true } : {}),
      ...(a['no-test'] ? { test: false } : {}),
      ...(a.protocol ? { protocol: a.protocol } : {}),
      signal: abort.signal,
      onNote: noteToStderr,
      onStart: (s) => {
        options = s.options;
        runFolder = s.runFolder;
        if (a.json) return;
        onEvent = stepProgress(s.options);
        const out = relative(process.cwd(), s.runFolder) || s.runFolder;
        const o = s.options;
        const where = s.env.source.kind === 'module' ? ` from ${s.env.source.path}` : '';
        toStdout(
          `${bold(label)} — env ${o.env}${where} (${s.env.mode}: ${s.env.reward}); meta agent ${s.meta}; ` +
            `budget ${o.budget} steps${(o.parallel ?? 1) > 1 ? ` (${o.parallel} in flight)` : ''}; seeds ${seedsLine(o)}; policy ${o.policy}; ${runSeedLine(o)}; evaluations ${s.evaluation}; run folder ${out}${s.resumed ? ' (resumed)' : ''}\n` +
            `${validationLine(s.validation)}\n${protocolStatement(s.protocol)}\n`,
        );
        if (s.validation.warning) toStderr(`${label}: warning: ${s.validation.warning}\n`);
      },
      onEvent: (e, s) => onEvent?.(e, s),
      // Lines, not a redrawn one, even on a terminal: the step lines go between them.
      ...(a.json ? {} : { onProgress: progressPrinter({ tty: false }) }),
    });
    if (a.json) toStdout(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const out = relative(process.cwd(), result.runFolder) || result.runFolder;
      toStdout(
        `\n${summaryTable(result, options as RunOptions)}\nrun folder: ${out}  (automemo view ${shellWord(out)} shows it)\n`,
      );
    }
    // Stopped by infrastructure or by the user: the table is printed, and the exit code says the run did not finish.
    return result.failure ? 1 : result.interrupted ? 130 : 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}


/** A path as the user can type it from here: relative when it lies under the working folder, else absolute. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), resolve(path));
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : resolve(path);
}

/** A word a POSIX shell reads back as it is: quoted when it holds anything but the plainest characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The run seed, and the split's where it differs: the split seed names the held-out test split. */
function runSeedLine(o: RunOptions): string {
  const seeds = seedsOf(o);
  return `seed ${seeds.run}${seeds.split !== seeds.run ? ` (split seed ${seeds.split})` : ''}`;
}

function seedsLine(o: RunOptions): string {
  const screen = o.screen ? `the best ${o.screen.keep} of ${o.screen.designs.length} standard designs, screened on validation` : '';
  return [o.seeds.join(', '), screen].filter(Boolean).join(' + ') || 'none';
}

/** What the validation can tell apart, in a line. */
export function validationLine(v: ValidationPlan): string {
  const samples = v.samples > 1 ? ` (${v.samples} disjoint samples${v.deterministic ? '; a program is scored on each at most once' : ''})` : v.deterministic ? ' (all of them; a program is scored on them once)' : '';
  const held = v.selection
    ? `; ${v.selection.tasks} more held out for selection only (never shown to the meta agent; the pick is chosen there, known to ±${v.selection.resolvable.toFixed(3)})`
    : v.selectionNote
      ? `; ${v.selectionNote}`
      : '';
  return `validation: ${v.tasks} tasks, ${v.perEvaluation} per evaluation${samples}; a score on ${v.perEvaluation} tasks is known to ±${v.resolvable.toFixed(3)} (one task moves it by ${v.oneTask.toFixed(3)}): closer programs are not told apart${held}`;
}
export function summaryTable(s: SearchResult, options: RunOptions): string {
  const { split } = seedsOf(options);
  const rows: [string, string][] = [
    ['steps', String(s.steps)],
    ['generation actions', String(s.generations)],
    ['re-evaluation actions', String(s.reEvaluations)],
    ['valid generations', String(s.validGenerations)],
    ['failed generations', String(s.failedGenerations)],
    ['children that changed nothing (not evaluated)', String(s.noOps)],
    ['full evaluations', String(s.fullEvaluations)],
    [
      `selected (${options.selection})`,
      `${s.winner.id}: search validation ${fmt(s.winner.validation)} (n=${s.winner.evaluations}, LCB ${fmt(s.winner.lcb)}), selection ${s.winner.selection === undefined ? '— (none held out)' : fmt(s.winner.selection)}, test ${fmt(s.winner.test)}${s.winner.test !== undefined ? ` (test − search validation ${fmt(s.winner.test - s.winner.validation)})` : ''}`,
    ],
    ...(s.tie ? ([['tied with', `${s.tie.nodes.map((n) => `${n.id} (validation ${fmt(n.validation)}, test ${fmt(n.test)})`).join(', ')}: ${s.tie.note}`]] as [string, string][]) : []),
    ...(s.sources ? ([['selected by source', sourcesLine(s.sources)]] as [string, string][]) : []),
    ['root (no memory)', `validation ${fmt(s.root.validation)}, test ${fmt(s.root.test)}`],
    ...s.seeds.map((x) => [x.id, `validation ${fmt(x.validation)}, test ${fmt(x.test)}`] as [string, string]),
    ...(s.screen ? ([['screened designs', s.screen.map((d) => `${d.design} ${fmt(d.validation)}${d.kept ? ' (kept)' : ''}`).join(', ')]] as [string, string][]) : []),
    ['validation', validationLine(s.validation)],
    ['test split', `split seed ${split}: automemo eval --split-seed ${split} --protocol ${s.protocol} scores a program on the same held-out tasks`],
    ['protocol', protocolStatement(s.protocol)],
    ...(s.validation.warning ? ([['warning', s.validation.warning]] as [string, string][]) : []),
    ['model spend', `${s.tokens} tokens${s.usd ? `, $${s.usd.toFixed(4)}` : ''}`],
  ];
  if (s.unscored)
    rows.push(['unscored evaluations', `${s.unscored} (scored nothing, so not counted; see the journal for why)`]);
  if (s.stopped) rows.push(['stopped', s.stopped]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

/** The pick's score per source (a composed environment's score is their mean: each source weighs the same). */
function sourcesLine(s: NonNullable<SearchResult['sources']>): string {
  const names = [...new Set([...Object.keys(s.validation), ...Object.keys(s.test ?? {})])];
  const each = names.map((n) => `${n}: validation ${fmt(s.validation[n] ?? undefined)}${s.test ? `, test ${fmt(s.test[n] ?? undefined)}` : ''}`);
  return `${each.join('; ')} (the score is their mean: each source weighs the same, whatever its number of tasks)`;
}
