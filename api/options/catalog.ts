// Every option of every command and library call, each declared once (declare.ts): what the library accepts, its
// default, the commands that take it, its flag and its help. The CLI's parser and help, the library's schemas and
// types, and the defaults derive from this list (derive.ts); adding an option is one entry here (api/README.md).
// Their order is the order of the help.
import { z } from 'zod';
import { DEFAULT_MIN_EVAL_TASKS, DEFAULT_EVAL_FRACTION } from '../../engine/evaluate/task-sample.ts';
import { DEFAULT_PROTOCOL, PROTOCOLS } from '../../engine/environment/protocol.ts';
import type { EnvironmentDefinition } from '../../engine/environment/define.ts';
import { parseEnvRoot } from '../../engine/jobs/env-roots.ts';
import { parsePathMapping } from '../../engine/jobs/path-map.ts';
import { ModelMetaOptionsSchema } from '../../engine/meta/model/agent.ts';
import { MAX_SEED } from '../../engine/run-seeds.ts';
import { POLICY_NAMES } from '../../engine/search/policies/index.ts';
import { MAX_PARALLEL, MAX_SEEDS } from '../../engine/search/run-options.ts';
import { SCREEN_KEEP } from '../../engine/search/screen.ts';
import { DEFAULT_SELECTION_SHARE } from '../../engine/search/selection-holdout.ts';
import { MAX_REPEAT, MAX_STUDY_ENVS } from '../../engine/study/study-file.ts';
import { STANDARD_DESIGNS } from '../../memo-programs/registry.ts';
import { NPM_NAME } from '../../export/export.ts';
import { DEFAULT_LIMITS } from '../../sandbox/isolate.ts';
import { REPORT_LIMITS } from '../../viewer/report.ts';
import { environments } from '../environments.ts';
import { defaultWorkers, MAX_WORKERS } from '../worker-count.ts';
import { commaList, oneOf, option, share, wholeNumber } from './declare.ts';

const EnvInput = z.union([
  z.string().min(1).max(8192),
  z.custom<EnvironmentDefinition>(
    (v) => typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string',
    {
      error: 'expected a registered name, a module path, "data:<file>" or a definition',
    },
  ),
]);
const RUNS = ['search', 'eval', 'baselines'] as const;
const EVALUATIONS = ['eval', 'baselines'] as const;
const what = (c: string) =>
  ({ search: 'summary', check: 'report', baselines: 'results', study: "study's analysis" })[c] ?? 'result';

export const OPTIONS = [
  option({
    key: 'env',
    value: EnvInput,
    commands: RUNS,
    required: EVALUATIONS,
    help: 'the environment, one of:',
    cli: { flag: 'env', arg: 'ENV', list: (indent) => environments.help(indent) },
  }),
  option({
    key: 'env',
    value: z
      .array(z.string().min(1).max(4096))
      .min(1, 'give at least one environment')
      .max(MAX_STUDY_ENVS, `at most ${MAX_STUDY_ENVS} environments`),
    commands: ['study'],
    help: 'an environment (repeat for several; a,b,c composes several into one benchmark), one of:',
    cli: { flag: 'env', arg: 'ENV', multiple: true, list: (indent) => environments.help(indent) },
  }),
  option({
    key: 'env',
    value: EnvInput,
    commands: ['check'],
    help: "use this environment's sample episodes, tasks and budget (e.g. locomo) instead of the built-in samples",
    cli: {
      flag: 'env',
      arg: 'NAME',
    },
  }),
  option({
    key: 'program',
    value: z.string().min(1, 'give program: a name or a path').max(4096),
    commands: ['eval'],
    required: ['eval'],
    help:
      'a program name (no-memory, omni-simplemem, bm25, dense, trajectory-retrieval, reasoning-bank, g-memory) or a ' +
      'path (a file or folder; also accepted alone, as check takes it)',
    cli: {
      flag: 'program',
      arg: 'P',
    },
  }),
  option({
    key: 'program',
    value: z.string().min(1, 'give program: a program file or folder').max(4096),
    commands: ['check'],
    required: ['check'],
    help: 'the program file or folder to examine (the command line gives it alone)',
  }),
  option({
    key: 'programs',
    value: z.array(z.string().min(1, 'a program name is empty').max(4096)).max(MAX_SEEDS),
    commands: ['baselines'],
    help: 'only these programs (names or paths; default: every baseline)',
    cli: { flag: 'programs', arg: 'A,B', parse: commaList },
  }),
  option({
    key: 'split',
    value: z.enum(['validation', 'train', 'test'], {
      error: (i) =>
        'validation (the tasks a search validates on) or test (held out); ' +
        `got ${JSON.stringify(String(i.input).slice(0, 60))}`,
    }),
    commands: EVALUATIONS,
    default: 'test',
    help: 'validation (the tasks a search validates on; train is the same) or test (held out; default {default})',
    cli: { flag: 'split', arg: 'S' },
  }),
  option({
    key: 'budget',
    value: wholeNumber(0, 10_000),
    commands: ['search'],
    default: 20,
    recorded: true,
    resumable: true,
    help: 'steps after the seeds (default {default})',
    cli: { flag: 'budget', arg: 'N' },
  }),
  option({
    key: 'budget',
    value: wholeNumber(1, 1000),
    commands: ['demo'],
    default: 12,
    help: 'steps after the seeds (default {default})',
    cli: { flag: 'budget', arg: 'N' },
  }),
  option({
    key: 'budget',
    value: wholeNumber(0, 10_000),
    commands: ['study'],
    default: 12,
    help: 'steps per search (default {default})',
    cli: { flag: 'budget', arg: 'N' },
  }),
  option({
    key: 'seeds',
    value: z.union([
      z.literal('auto'),
      z
        .array(z.string().min(1, 'a seed name is empty').max(4096))
        .max(MAX_SEEDS, `at most ${MAX_SEEDS} seeds`)
        .readonly(),
    ]),
    commands: ['search', 'study'],
    default: 'auto',
    help: (c) =>
      c === 'study'
        ? "each search's seed programs (default auto: the screen)"
        : 'seed programs, by name or path; "auto" (default) screens the standard designs (the baselines and ' +
          `pipeline) on ` +
          `validation and keeps the best ${SCREEN_KEEP}; "none" for none; a seed's node is seed-<its name>`,
    cli: {
      flag: 'seeds',
      arg: 'A,B',
      parse: (text) => {
        if (text === 'auto') return 'auto';
        if (text === 'none') return [];
        const names = commaList(text);
        // Counted before any is looked at; each becomes a node with a safe id (engine/search/node-ids.ts), not a path.
        if (names.length > MAX_SEEDS)
          throw new Error(`--seeds takes at most ${MAX_SEEDS} programs; got ${names.length}`);
        if (names.includes(''))
          throw new Error(
            '--seeds has an empty name: give program names or paths separated by commas, "auto" or "none"',
          );
        return names;
      },
    },
  }),
  option({
    key: 'meta',
    value: z.enum(['model', 'offline']),
    commands: ['search', 'study'],
    help: 'model or offline (default: model when AUTOMEMO_META_MODEL is set, else offline)',
    cli: { flag: 'meta', arg: 'KIND' },
  }),
  option({
    key: 'out',
    value: z.string().min(1).max(4096),
    commands: [...RUNS, 'demo'],
    help: (c) =>
      `${c === 'eval' || c === 'baselines' ? 'where evidence goes' : 'run folder'} ` +
      `(default search-trees/runs/${c}-<time>)`,
    cli: {
      flag: 'out',
      arg: 'DIR',
    },
  }),
  option({
    key: 'out',
    value: z.string().min(1).max(4096),
    commands: ['study'],
    help: 'the study folder (new or empty; with --resume, the study)',
    cli: { flag: 'out', arg: 'DIR' },
  }),
  option({
    key: 'repeat',
    value: wholeNumber(1, MAX_REPEAT),
    commands: ['study'],
    default: 3,
    help: 'searches per environment, each its own run seed (default {default}; not --seeds, the seed programs)',
    cli: { flag: 'repeat', arg: 'N' },
  }),
  option({
    key: 'resume',
    value: z.boolean(),
    commands: ['search', 'study'],
    help: (c) =>
      c === 'study'
        ? 'continue the study in --out: finished pieces are read back, each unfinished search resumes from its journal'
        : 'continue the run in --out from its journal (a resume may raise the budget, the dollar cap and the steps ' +
          'in flight)',
    cli: { flag: 'resume' },
  }),
  option({
    key: 'maxUsd',
    value: z.number().positive(),
    commands: ['search'],
    recorded: true,
    resumable: true,
    help: 'stop cleanly once the models have cost this much',
    cli: { flag: 'max-usd', arg: 'X' },
  }),
  option({
    key: 'policy',
    value: oneOf(POLICY_NAMES, 'policy'),
    commands: ['search'],
    default: 'ucb',
    recorded: true,
    help: `how each step picks its action: ${POLICY_NAMES.join(', ')} (default {default})`,
    cli: { flag: 'policy', arg: 'P' },
  }),
  option({
    key: 'select',
    value: z.enum(['lcb', 'max-mean']),
    commands: ['search'],
    default: 'lcb',
    recorded: 'selection',
    help: 'the program handed over: lcb (best lower confidence bound) or max-mean (default {default})',
    cli: { flag: 'select', arg: 'S' },
  }),
  option({
    key: 'evalFraction',
    value: share(),
    commands: ['search', 'study'],
    default: DEFAULT_EVAL_FRACTION,
    recorded: true,
    help: 'share of validation tasks per evaluation (default {default})',
    cli: { flag: 'eval-fraction', arg: 'F' },
  }),
  option({
    key: 'minEvalTasks',
    value: wholeNumber(0, 100_000),
    commands: ['search', 'study'],
    default: DEFAULT_MIN_EVAL_TASKS,
    recorded: true,
    help: 'but at least N of them (default {default}; all when fewer): fewer tasks cannot tell programs apart',
    cli: {
      flag: 'min-eval-tasks',
      arg: 'N',
    },
  }),
  option({
    key: 'parallel',
    value: wholeNumber(1, MAX_PARALLEL),
    commands: ['search', 'study'],
    recorded: true,
    resumable: true,
    help: (c) =>
      `steps in flight at once${c === 'study' ? ' per search' : ''} (default 1; at most ${MAX_PARALLEL}): ` +
      "each step's model calls overlap the others' " +
      'evaluations',
    cli: {
      flag: 'parallel',
      arg: 'K',
    },
  }),
  option({
    key: 'clustering',
    value: ModelMetaOptionsSchema.shape.clustering.unwrap(),
    commands: ['search'],
    recorded: true,
    help:
      "with a model: clue (default; the model summarises each task's scenario and keeps a cluster pool) or " +
      "metadata (the environment's groups: site, template, category)",
    cli: {
      flag: 'clusters',
      arg: 'C',
    },
  }),
  option({
    key: 'analysis',
    value: ModelMetaOptionsSchema.shape.analysis.unwrap(),
    commands: ['search'],
    help:
      'how the model meta agent reads the evidence and writes a child: one call per child (every cluster analysed, ' +
      'the proposal and its edits in one reply; default), or an analysis call per program covering its clusters, or ' +
      'one per cluster and a synthesis, each followed by a generation call',
  }),
  option({
    key: 'metaMaxTokens',
    value: ModelMetaOptionsSchema.shape.maxTokens.unwrap(),
    commands: ['search'],
    help:
      "the model meta agent's max_tokens per purpose (analysis, generation, …); a reply cut at its limit is asked " +
      'again with twice it',
  }),
  option({
    key: 'data',
    value: z.string().min(1).max(4096),
    commands: [...RUNS, 'demo', 'study'],
    recorded: true,
    help: (c) =>
      c === 'demo'
        ? 'another folder of LoCoMo-format conversations (default: the shipped ones)'
        : c === 'study'
          ? "the environments' data folder"
          : "the environment's data folder (locomo: conversation files)",
    cli: {
      flag: 'data',
      arg: 'DIR',
    },
  }),
  option({
    key: 'strict',
    value: z.boolean(),
    commands: [...RUNS, 'study'],
    recorded: true,
    help:
      'a data: benchmark must load whole: a world left out by a bad field, or a line that is not JSON, is an error ' +
      '(exit 1, naming file:line), not a note',
    cli: {
      flag: 'strict',
    },
  }),
  option({
    key: 'seed',
    value: wholeNumber(0, MAX_SEED),
    commands: [...RUNS, 'check', 'study'],
    help: (c) =>
      c === 'study'
        ? 'the first run seed (default 0): the searches use seed, seed + 1, …'
        : "the run's seed (default 0): the split, the sandbox's random numbers and any sampling derive from it",
    cli: { flag: 'seed', arg: 'N' },
  }),
  option({
    key: 'splitSeed',
    value: wholeNumber(0, MAX_SEED),
    commands: [...RUNS, 'check', 'study'],
    help: (c) =>
      c === 'study'
        ? 'the split every search, the floor and the transfer share (default 0)'
        : 'hold the split fixed whatever --seed (default: --seed)',
    cli: { flag: 'split-seed', arg: 'N' },
  }),
  option({
    key: 'tasks',
    value: wholeNumber(1, 1_000_000),
    commands: EVALUATIONS,
    help: "only N of the split's tasks, a seeded sample (a quick look; scores on different samples do not compare)",
    cli: { flag: 'tasks', arg: 'N' },
  }),
  option({
    key: 'workers',
    value: wholeNumber(0, MAX_WORKERS),
    commands: [...RUNS, 'study'],
    help:
      'local worker processes evaluating programs (default: one per core but one, at least 1; 0 evaluates in this ' +
      'process)',
    cli: {
      flag: 'workers',
      arg: 'N',
      default: defaultWorkers,
    },
  }),
  option({
    key: 'queue',
    value: z.string().min(1).max(4096),
    commands: [...RUNS, 'study'],
    help:
      'evaluate on `automemo worker --queue URL` processes through Redis (redis://[:password@]host:port, rediss:// ' +
      'for TLS); see the README\'s "Scaling out"',
    cli: {
      flag: 'queue',
      arg: 'URL',
    },
  }),
  option({
    key: 'designs',
    value: z.array(z.string().min(1, 'a design name is empty').max(200)).min(1).max(MAX_SEEDS),
    commands: ['study'],
    default: STANDARD_DESIGNS,
    help: `the floor's designs (default the ${STANDARD_DESIGNS.length} standard designs)`,
    cli: { flag: 'designs', arg: 'A,B', parse: commaList },
  }),
  option({
    key: 'protocol',
    value: z.enum(PROTOCOLS, {
      error: (i) =>
        'update (the update episodes only; the default) or update+validation; ' +
        `got ${JSON.stringify(String(i.input).slice(0, 60))}`,
    }),
    commands: [...RUNS, 'study'],
    default: DEFAULT_PROTOCOL,
    recorded: true,
    help:
      'what a memory asked test questions learns from: update (the update episodes only, as during a search; ' +
      'default) or update+validation (history benchmarks: the whole history)',
    cli: { flag: 'protocol', arg: 'P' },
  }),
  option({
    key: 'selectionShare',
    value: z.number().min(0).max(0.5),
    commands: ['search'],
    default: DEFAULT_SELECTION_SHARE,
    recorded: true,
    help:
      'share of the validation held out for selection only (0 holds none out): never shown to the meta agent, where ' +
      'the pick is chosen (engine/search/selection-holdout.ts); validations under 40 tasks hold none out',
  }),
  option({
    key: 'joint',
    value: z.boolean(),
    commands: ['study'],
    default: false,
    help: 'also one search over every environment composed into one',
    cli: { flag: 'joint' },
  }),
  option({
    key: 'transfer',
    value: z.boolean(),
    commands: ['study'],
    default: true,
    help: 'skip the transfer matrix',
    cli: { flag: 'no-transfer', sets: false },
  }),
  option({
    key: 'test',
    value: z.boolean(),
    commands: ['search'],
    default: true,
    recorded: 'testWinner',
    help: 'skip the final test-split evaluation',
    cli: { flag: 'no-test', sets: false },
  }),
  option({
    key: 'budgetChars',
    value: wholeNumber(1, 10_000_000),
    commands: ['check'],
    help: "payload text budget (default: the environment's, else 50000)",
    cli: { flag: 'budget-chars', arg: 'N' },
  }),
  option({
    key: 'budgetImages',
    value: wholeNumber(0, 100),
    commands: ['check'],
    help: "payload image budget (default: the environment's, else 2)",
    cli: { flag: 'budget-images', arg: 'N' },
  }),
  option({
    key: 'heapMb',
    value: wholeNumber(16, 4096),
    commands: ['check'],
    help: `isolate heap cap (default ${DEFAULT_LIMITS.heapMb})`,
    cli: { flag: 'heap-mb', arg: 'N' },
  }),
  option({
    key: 'callCpuMs',
    value: wholeNumber(10, 3_600_000),
    commands: ['check'],
    help: `CPU time per call (default ${DEFAULT_LIMITS.callCpuMs})`,
    cli: { flag: 'cpu-ms', arg: 'N' },
  }),
  option({
    key: 'callWallMs',
    value: wholeNumber(10, 3_600_000),
    commands: ['check'],
    help: `wall-clock time per call (default ${DEFAULT_LIMITS.callWallMs})`,
    cli: { flag: 'wall-ms', arg: 'N' },
  }),
  option({
    key: 'typecheckLimits',
    value: z.object({ ms: z.number(), heapMb: z.number() }).partial().strict(),
    commands: ['check'],
    help:
      "the type check's wall time (ms) and memory (heapMb); a program over them fails (default 60 s, 1024 MB; " +
      'bounds: sandbox/typecheck-thread.ts)',
  }),
  option({
    key: 'queue',
    value: z.string().min(1).max(4096),
    commands: ['worker'],
    help:
      'redis://host:port, redis://:password@host:port/db, or rediss://… for TLS. Never expose Redis without a ' +
      'password (requirepass) and, across networks, TLS.',
    cli: {
      flag: 'queue',
      arg: 'URL',
    },
  }),
  option({
    key: 'ipc',
    value: z.boolean(),
    commands: ['worker'],
    // How a search starts its local worker processes (--workers N); users do not call it.
    help: "serve the search that started this process, over Node's IPC channel",
    cli: { flag: 'ipc', hidden: true },
  }),
  option({
    key: 'concurrency',
    value: wholeNumber(1, 64),
    commands: ['worker'],
    help: 'jobs this process runs at once (default 1)',
    cli: { flag: 'concurrency', arg: 'C' },
  }),
  option({
    key: 'roots',
    value: z.array(z.string()).max(32, 'at most 32 --env-root options'),
    commands: ['worker'],
    help:
      'an absolute folder whose environment modules and data this worker opens (repeatable). Without it, only the ' +
      'built-in environments (and their default data): a job naming any other file is refused unread, since ' +
      'anyone who reaches Redis can put a job on the queue',
    cli: {
      flag: 'env-root',
      arg: 'DIR',
      multiple: true,
      parse: parseEnvRoot,
    },
  }),
  option({
    key: 'pathMap',
    value: z.array(z.object({ from: z.string(), to: z.string() })).max(32, 'at most 32 --path-map options'),
    commands: ['worker'],
    help:
      "the search's environment modules and data under the absolute folder FROM are under TO on this machine " +
      "(repeatable; the environment is still checked against the search's content hash; TO must be under an " +
      '--env-root)',
    cli: {
      flag: 'path-map',
      arg: 'FROM=TO',
      multiple: true,
      parse: parsePathMapping,
    },
  }),
  option({
    key: 'lockMs',
    value: wholeNumber(1000, 3_600_000),
    commands: ['worker'],
    help:
      "a job's lock; a worker that dies loses its job to another after about this long (default 30000, or 30000 " +
      "per concurrent job). A program's call holds the worker's thread for up to its CPU limit " +
      `(${DEFAULT_LIMITS.callCpuMs / 1000} s) and renewals wait behind it: keep the lock well above that, or a busy ` +
      "worker loses its job and the job fails as its program's",
    cli: {
      flag: 'lock-ms',
      arg: 'MS',
    },
  }),
  option({
    key: 'port',
    value: wholeNumber(0, 65_535),
    commands: ['view'],
    help: 'port to listen on (default: a free one)',
    cli: { flag: 'port', arg: 'N' },
  }),
  option({
    key: 'html',
    value: z.string().min(1).max(4096),
    commands: ['report'],
    help: "write the viewer's page as one self-contained HTML file",
    cli: { flag: 'html', arg: 'FILE' },
  }),
  option({
    key: 'imagesMb',
    value: wholeNumber(0, 1000),
    commands: ['report'],
    default: REPORT_LIMITS.totalImageBytes / 1e6,
    help: 'with --html: inline images up to N megabytes in all (default {default})',
    cli: { flag: 'images-mb', arg: 'N' },
  }),
  option({
    key: 'run',
    value: z.string().min(1, 'give run: the run folder').max(4096),
    commands: ['export'],
    required: ['export'],
    help: 'the run folder whose program is exported (the command line gives it alone)',
  }),
  option({
    key: 'node',
    value: z.string().min(1).max(200),
    commands: ['export'],
    help: "the node to export (see the run's journal or viewer)",
    cli: { flag: 'node', arg: 'ID' },
  }),
  option({
    key: 'lcb',
    value: z.boolean(),
    commands: ['export'],
    cliOnly: true,
    help:
      "the run's selected program (default): its final winner, or the best lower confidence bound when the run has " +
      'no final',
    cli: {
      flag: 'lcb',
    },
  }),
  option({
    key: 'out',
    value: z.string().min(1).max(4096),
    commands: ['export'],
    required: ['export'],
    help: 'where the package goes (must not exist, or be empty)',
    cli: { flag: 'out', arg: 'DIR' },
  }),
  option({
    key: 'format',
    value: z.enum(['npm', 'mcp']),
    commands: ['export'],
    default: 'npm',
    help:
      'npm (default): a library with createMemory(); mcp: the same plus an MCP server (stdio) with memory_update, ' +
      'memory_retrieve and memory_stats tools',
    cli: {
      flag: 'format',
      arg: 'F',
    },
  }),
  option({
    key: 'native',
    value: z.enum(['bundle', 'source']),
    commands: ['export'],
    help:
      'bundle (default): isolated-vm and hnswlib-node go inside the package prebuilt for this platform, so ' +
      'installing compiles nothing; source: they compile on install (any platform)',
    cli: {
      flag: 'native',
      arg: 'M',
    },
  }),
  option({
    key: 'name',
    value: z.string().max(214).regex(NPM_NAME, 'not a valid npm package name (lowercase letters, digits, . _ -)'),
    commands: ['export'],
    help: 'npm package name (default automemo-memory-<env>-<node>, with -mcp after it for --format mcp)',
    cli: { flag: 'name', arg: 'NAME' },
  }),
  option({
    key: 'trustRun',
    value: z.boolean(),
    commands: ['search', 'export'],
    help: (c) =>
      `${c === 'search' ? 'with --resume: ' : ''}run the environment module the run folder names even when this ` +
      "user's automemo did not make the run (a folder from someone else); without it such a run is refused before " +
      'any of its code runs',
    cli: { flag: 'trust-run' },
  }),
  option({
    key: 'json',
    value: z.boolean(),
    commands: [...RUNS, 'check', 'export', 'study'],
    cliOnly: true,
    help: (c) => `print the ${what(c)} as JSON`,
    cli: { flag: 'json' },
  }),
] as const;

export type Options = typeof OPTIONS;
