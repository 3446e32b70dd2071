// The model row of npm run bench:search: the same model search (8 steps that each write a child through the meta
// agent) with --parallel 1 and --parallel 4, against the local OpenAI-compatible server answering every chat call
// after 3 s, as a remote model would. Prints both wall clocks, their ratio, the valid children of each, and what a
// valid child cost: model calls (as the server received them) and tokens (prompt + completion, as it reported them),
// against what they cost before issue 32.
// Run alone: node --no-node-snapshot --import tsx bench/search-parallel.ts [--latency-ms 3000 --steps 8]
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { CostLedger } from '../foundation/llm/ledger.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { ModelMetaAgent } from '../engine/meta/model/agent.ts';
import { runSearch } from '../engine/search/search.ts';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { OpenAITestServer } from '../test/support/openai-server.ts';
import { offlineServices } from '../test/support/services.ts';
import { ToyEnvironment } from '../test/support/toy-env.ts';
import { createToyRun } from '../test/support/toy-run.ts';
import { table } from './stats.ts';

export interface ParallelRow {
  parallel: number;
  seconds: number;
  generations: number;
  validChildren: number;
  /** Chat requests the server received. */
  modelCalls: number;
  /** Prompt and completion tokens the server reported for them. */
  tokens: number;
}

/** A valid toy program per call, each one's payload different (a child that changed nothing would not be evaluated). */
function reply(call: number): string {
  return [
    '```ts',
    '// file: index.ts',
    "import { defineMemo } from 'automemo/contract';",
    `export const config = { maxChars: 2000, variant: ${call} };`,
    'const lines: string[] = [];',
    'export default defineMemo({',
    '  update(episode) { for (const s of episode.steps) lines.push(s.action); },',
    '  retrieve(task) { const door = /door-\\d+/.exec(task.instruction)?.[0] ?? ""; return { text: `variant ${config.variant}\\n${lines.filter((l) => l.includes(`${door} `)).join("\\n")}`.slice(0, config.maxChars), images: [] }; },',
    '});',
    '```',
  ].join('\n');
}

/** One JSON reply every JSON purpose of the meta agent accepts (per-cluster and per-program analyses, synthesis, CluE). */
const ANALYSIS = {
  relevance: [],
  weaknesses: ['returns every line'],
  suggestions: [{ priority: 1, change: 'filter by door' }],
};
const JSON_REPLY = JSON.stringify({
  ...ANALYSIS,
  clusters: [{ cluster: 'all', ...ANALYSIS }],
  summary: 'Filter the lines by the door the task names.',
  changes: [{ change: 'filter by door' }],
  summaries: [],
  operations: [],
  assign: {},
});

async function searchOnce(server: OpenAITestServer, parallel: number, steps: number): Promise<ParallelRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-parallel-'));
  try {
    const { folder, opts } = createToyRun(dir, {
      budget: steps,
      meta: 'model',
      seeds: ['trajectory-retrieval'],
      parallel,
      repairAttempts: 1,
      quickExamTasks: 2,
    });
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'bench-meta' });
    const before = server.chatRequests().length;
    const ledger = new CostLedger();
    const started = Date.now();
    // c_e = 0: every step generates (a re-evaluation makes no model call, and the row is about model steps).
    const s = await runSearch({
      env: new ToyEnvironment({ maxChars: 2000, maxImages: 0 }),
      services: offlineServices(),
      meta: new ModelMetaAgent(models.meta as never),
      folder,
      options: { ...opts, ucb: { ...opts.ucb, cEval: 0 } },
      models,
      ledger,
    });
    return {
      parallel,
      seconds: (Date.now() - started) / 1000,
      generations: s.generations,
      validChildren: s.validGenerations,
      modelCalls: server.chatRequests().length - before,
      tokens: ledger.total.promptTokens + ledger.total.completionTokens,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function parallelRows(latencyMs = 3000, steps = 8): Promise<ParallelRow[]> {
  const server = await OpenAITestServer.start();
  let calls = 0;
  server.onChat = (body) => {
    calls++;
    if (body.response_format?.type === 'json_object') return { content: JSON_REPLY, delayMs: latencyMs };
    return { content: reply(calls), delayMs: latencyMs };
  };
  try {
    const rows = [await searchOnce(server, 1, steps), await searchOnce(server, 4, steps)];
    return rows;
  } finally {
    await server.close();
  }
}

const perChild = (n: number, r: ParallelRow) => (r.validChildren ? n / r.validChildren : Number.NaN);

/**
 * Calls and tokens per valid child before issue 32 (one analysis per cluster and a synthesis, every identical
 * request asked again): this bench at e3a8f66, 8 steps, 3 s latency, --parallel 1 and 4.
 */
const BEFORE = { calls: 4.0, tokens: { 1: 32_161, 4: 33_323 } as Record<number, number> };

export function printParallelRows(rows: ParallelRow[], latencyMs: number): void {
  const [one, four] = rows as [ParallelRow, ParallelRow];
  process.stdout.write(
    `\nParallel search: ${one.generations} model steps on the toy environment, every chat call answered after ${latencyMs / 1000} s\n`,
  );
  process.stdout.write(
    `${table([
      [
        '--parallel',
        'wall s',
        'model calls',
        'generations',
        'valid children',
        'calls per valid child',
        'tokens per valid child',
        'wall vs 1',
      ],
      ...rows.map((r) => [
        String(r.parallel),
        r.seconds.toFixed(1),
        String(r.modelCalls),
        String(r.generations),
        String(r.validChildren),
        perChild(r.modelCalls, r).toFixed(2),
        perChild(r.tokens, r).toFixed(0),
        (r.seconds / one.seconds).toFixed(2),
      ]),
    ])}\n`,
  );
  const cost = rows.map((r) => ({
    calls: perChild(r.modelCalls, r) / BEFORE.calls,
    tokens: perChild(r.tokens, r) / (BEFORE.tokens[r.parallel] ?? Number.NaN),
  }));
  const cheap = cost.every((c) => c.calls <= 0.6 && c.tokens <= 0.6);
  process.stdout.write(
    `target: calls and tokens per valid child at most 0.60× e3a8f66's (${BEFORE.calls.toFixed(2)} calls; ${BEFORE.tokens[1]} and ${BEFORE.tokens[4]} tokens at --parallel 1 and 4) — ${cheap ? 'met' : 'NOT met'} (${cost.map((c, i) => `--parallel ${rows[i]?.parallel}: ${c.calls.toFixed(2)}× calls, ${c.tokens.toFixed(2)}× tokens`).join('; ')})\n`,
  );
  const ok = four.seconds <= 0.4 * one.seconds && four.validChildren === one.validChildren;
  process.stdout.write(
    `target: --parallel 4 at most 0.40× the wall clock of --parallel 1 with the same valid children — ${ok ? 'met' : 'NOT met'} (${(four.seconds / one.seconds).toFixed(2)}×, ${four.validChildren} vs ${one.validChildren})\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'latency-ms': { type: 'string' }, steps: { type: 'string' } } });
  const latency = Number(values['latency-ms'] ?? 3000);
  const rows = await parallelRows(latency, Number(values.steps ?? 8));
  printParallelRows(rows, latency);
  closeHostServices();
}
