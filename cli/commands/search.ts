// automemo search: the budget-aware tree search over memo programs (api/search.ts), with a run folder that can
// be resumed; this file is its arguments, its terminal progress and its summary table.
import { isAbsolute, relative, resolve } from 'node:path';
import { SCREEN_KEEP, search, type SearchResult, seedsOf } from '../../api/search.ts';
import type { JournalEvent, RunOptions, SearchProgress, ValidationPlan } from '../../api/index.ts';
import { type CommandLineValues, commandHelp, commandLineDefaults } from '../../api/options/derive.ts';
import { noPositionals, parse, UsageError } from '../args.ts';
import { protocolStatement } from '../../api/evaluate.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { progressPrinter } from '../progress.ts';
import { fmt, stepProgress } from '../search-progress.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = commandHelp(
  'search',
  `automemo search --env <env> [options]

Budget-aware UCB tree search over memo programs. Step 0 evaluates the no-memory
root and the seeds (by default the best ${SCREEN_KEEP} standard designs, screened on
validation); each step then re-evaluates a program or has the meta agent write
a child (quick-examined, repaired up to 3 times, evaluated). The program with
the best lower confidence bound is evaluated on the held-out test split.`,
);

export async function run(argv: string[]): Promise<number> {
  return searchCommand(parse('search', argv, { positionals: noPositionals('search') }));
}

/** A search from the command line's values (demo's too): progress on the terminal, the summary table at the end. */
export async function searchCommand(given: CommandLineValues<'search'>, label = 'automemo search'): Promise<number> {
  const { json, ...a } = { ...commandLineDefaults('search'), ...given };
  if (!a.resume && !a.env) throw new UsageError('give --env');
  if (a.resume && !a.out) throw new UsageError('--resume needs --out, the run folder to continue');
  // Named by their flags here; the API checks them again in its own words.
  if (a.meta === 'model' && !resolveModels().meta)
    throw new UsageError('--meta model needs a model: set AUTOMEMO_META_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
  // Ctrl-C stops the search cleanly (journaled, resumable); a second one leaves at once.
  const abort = new AbortController();
  // The run's folder once the search has one (onStart); before that, the folder asked for, if any.
  let runFolder = a.out;
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    const resume = runFolder
      ? `continue with: automemo search --resume --out ${shellWord(shownPath(runFolder))}`
      : 'no run folder was started yet';
    toStderr(`\n${label}: stopping (the step in flight is abandoned); ${resume}\n`);
    abort.abort(new Error('interrupted by the user (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  let options: RunOptions | undefined;
  let onEvent: ((e: JournalEvent, s: SearchProgress) => void) | undefined;
  try {
    const result = await search({
      ...a,
      signal: abort.signal,
      onNote: noteToStderr,
      onStart: (s) => {
        options = s.options;
        runFolder = s.runFolder;
        if (json) return;
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
      ...(json ? {} : { onProgress: progressPrinter({ tty: false }) }),
    });
    if (json) toStdout(`${JSON.stringify(result, null, 2)}\n`);
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
  const screen = o.screen
    ? `the best ${o.screen.keep} of ${o.screen.designs.length} standard designs, screened on validation`
    : '';
  return [o.seeds.join(', '), screen].filter(Boolean).join(' + ') || 'none';
}

/** What the validation can tell apart, in a line. */
export function validationLine(v: ValidationPlan): string {
  const samples =
    v.samples > 1
      ? ` (${v.samples} disjoint samples${v.deterministic ? '; a program is scored on each at most once' : ''})`
      : v.deterministic
        ? ' (all of them; a program is scored on them once)'
        : '';
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
    ...(s.tie
      ? ([
          [
            'tied with',
            `${s.tie.nodes.map((n) => `${n.id} (validation ${fmt(n.validation)}, test ${fmt(n.test)})`).join(', ')}: ${s.tie.note}`,
          ],
        ] as [string, string][])
      : []),
    ...(s.sources ? ([['selected by source', sourcesLine(s.sources)]] as [string, string][]) : []),
    ['root (no memory)', `validation ${fmt(s.root.validation)}, test ${fmt(s.root.test)}`],
    ...s.seeds.map((x) => [x.id, `validation ${fmt(x.validation)}, test ${fmt(x.test)}`] as [string, string]),
    ...(s.screen
      ? ([
          [
            'screened designs',
            s.screen.map((d) => `${d.design} ${fmt(d.validation)}${d.kept ? ' (kept)' : ''}`).join(', '),
          ],
        ] as [string, string][])
      : []),
    ['validation', validationLine(s.validation)],
    [
      'test split',
      `split seed ${split}: automemo eval --split-seed ${split} --protocol ${s.protocol} scores a program on the same held-out tasks`,
    ],
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
  const each = names.map(
    (n) =>
      `${n}: validation ${fmt(s.validation[n] ?? undefined)}${s.test ? `, test ${fmt(s.test[n] ?? undefined)}` : ''}`,
  );
  return `${each.join('; ')} (the score is their mean: each source weighs the same, whatever its number of tasks)`;
}
