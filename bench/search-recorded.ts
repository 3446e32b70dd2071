// The recorded-session row of npm run bench:search: the second real-model session (../shared/data/
// meta-model-session-2/, 6 steps on LoCoMo, two in flight) replayed through today's meta agent, per cluster and per
// program, against the local server. Prints what a valid child cost — requests and tokens (the local server's count:
// characters / 4 of the messages and the reply), and the prompt tokens an endpoint that caches prompt prefixes would
// still bill in full — beside the recorded run's own requests counted the same way, and the test score of the pick
// against the seed's. Skipped when ../shared is absent.
// Run alone: node --no-node-snapshot --import tsx bench/search-recorded.ts
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { OpenAITestServer } from '../test/support/openai-server.ts';
import { libReference } from '../memo-programs/lib-reference.ts';
import { contractPath } from '../sandbox/paths.ts';
import { purposeOf, recordedCalls, requestText, session2Dir, sessionDir, subjectOf } from '../test/support/recorded-session.ts';
import { replaySecondSession, tokensOf } from '../test/support/second-session.ts';
import { table } from './stats.ts';

export interface RecordedRow {
  label: string;
  requests: number;
  tokens: number;
  /** Prompt tokens beyond the longest prefix an earlier request shared: what an endpoint's prefix cache could not serve. */
  uncached: number;
  /** Requests identical to an earlier one of the run. */
  repeated?: number;
  /** The smallest share of characters the analysis prompts of one program in one step have as a common prefix. */
  analysisPrefix?: number;
  validChildren: number;
  pickTest?: number;
  seedTest?: number;
  seconds?: number;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The smallest share, over each program's rounds of per-cluster analyses (a round ends with that program's
 * synthesis), of the characters its analysis prompts have as a common prefix, over the shortest of them.
 */
function analysisPrefix(requests: any[]): number | undefined {
  const open = new Map<string, string[]>();
  const rounds: string[][] = [];
  for (const b of requests) {
    const node = subjectOf(b).node ?? '';
    if (purposeOf(b) === 'analysis') open.set(node, [...(open.get(node) ?? []), requestText(b)]);
    if (purposeOf(b) === 'synthesis' && open.has(node)) {
      rounds.push(open.get(node) as string[]);
      open.delete(node);
    }
  }
  const shares = rounds.filter((r) => r.length > 1).map((r) => Math.min(...r.slice(1).map((a) => commonPrefix(a, r[0] as string))) / Math.min(...r.map((a) => a.length)));
  return shares.length ? Math.min(...shares) : undefined;
}

/** Prompt tokens (characters / 4) no earlier request's prefix covers, summed over the requests in order. */
function uncachedTokens(prompts: string[]): number {
  return prompts.reduce((n, p, i) => n + Math.ceil((p.length - Math.max(0, ...prompts.slice(0, i).map((q) => commonPrefix(p, q)))) / 4), 0);
}

/** The recorded run's requests, counted as the local server counts them (its 3 repeated requests are not on file). */
function asRecorded(): RecordedRow {
  let tokens = 0;
  const calls = readdirSync(session2Dir)
    .filter((n) => /^call-\d+\.json$/.test(n))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(session2Dir, name), 'utf8')) as { messages: unknown; reply: string });
  for (const call of calls) tokens += Math.ceil(JSON.stringify(call.messages).length / 4) + Math.ceil(call.reply.length / 4);
  return {
    label: 'recorded run (ff6a911)',
    requests: calls.length,
    // Its README: three requests were sent again while their first copy was unanswered (not on file).
    repeated: 3,
    ...(analysisPrefix(calls) !== undefined ? { analysisPrefix: analysisPrefix(calls) as number } : {}),
    tokens,
    uncached: uncachedTokens(calls.map((c) => JSON.stringify(c.messages))),
    validChildren: 3,
    pickTest: 0.878,
    seedTest: 0.761,
  };
}

export async function recordedRows(): Promise<RecordedRow[] | undefined> {
  if (!existsSync(session2Dir)) return undefined;
  const server = await OpenAITestServer.start();
  const work = mkdtempSync(join(tmpdir(), 'bench-recorded-'));
  try {
    const rows = [asRecorded()];
    for (const analysis of ['cluster', 'program'] as const) {
      const started = Date.now();
      const r = await replaySecondSession(server, { out: join(work, analysis), analysis, budget: 6 });
      const seed = r.result.seeds.find((s) => s.id === 'seed-pipeline');
      rows.push({
        label: `replay, analysis per ${analysis}`,
        requests: r.requests.length,
        tokens: tokensOf(r.events),
        uncached: uncachedTokens(r.requests.map((b) => JSON.stringify(b.messages))),
        repeated: r.requests.length - new Set(r.requests.map((b) => JSON.stringify(b))).size,
        ...(analysisPrefix(r.requests) !== undefined ? { analysisPrefix: analysisPrefix(r.requests) as number } : {}),
        validChildren: r.result.validGenerations,
        ...(r.result.winner.test !== undefined ? { pickTest: r.result.winner.test } : {}),
        ...(seed?.test !== undefined ? { seedTest: seed.test } : {}),
        seconds: (Date.now() - started) / 1000,
      });
    }
    return rows;
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const per = (n: number, r: RecordedRow) => (r.validChildren ? n / r.validChildren : Number.NaN);

/**
 * What the recorded replies use of the text every call repeats: how many of the contract's exported types and of
 * automemo/lib's declarations the analyses and syntheses name, and how many the programs name (why the contract goes
 * only to the calls that write a program).
 */
export function partsNamed(): string[] {
  const contract = readFileSync(contractPath, 'utf8');
  const types = [...new Set([...contract.matchAll(/^export (?:declare )?(?:function|class|const|type|interface)\s+(\w+)/gm)].map((m) => m[1] as string))];
  const helpers = [...new Set([...libReference().matchAll(/^(?:function|class|const|type|interface)\s+(\w+)/gm)].map((m) => m[1] as string))];
  const lines: string[] = [];
  for (const dir of [sessionDir, session2Dir].filter(existsSync)) {
    const calls = recordedCalls(dir);
    const named = (names: string[], replies: string[]) => names.filter((n) => replies.some((r) => new RegExp(`\\b${n}\\b`).test(r))).length;
    const reading = calls.filter((c) => c.purpose === 'analysis' || c.purpose === 'synthesis').map((c) => c.reply);
    const writing = calls.filter((c) => c.purpose === 'generation' || c.purpose === 'repair').map((c) => c.reply);
    lines.push(
      `${dir.split('/').pop()}: ${reading.length} analyses and syntheses name ${named(types, reading)} of the contract's ${types.length} types and ${named(helpers, reading)} of automemo/lib's ${helpers.length} declarations; ${writing.length} programs name ${named(types, writing)} and ${named(helpers, writing)}`,
    );
  }
  return lines;
}

export function printRecordedRows(rows: RecordedRow[] | undefined): void {
  if (!rows) {
    process.stdout.write(`\nRecorded session: skipped (${session2Dir} is absent)\n`);
    return;
  }
  process.stdout.write(`\nWhat the recorded replies use of the repeated context:\n${partsNamed().join('\n')}\n`);
  process.stdout.write('\nRecorded session 2 (6 steps on LoCoMo, --parallel 2, a real model\'s replies served by the local server)\n');
  process.stdout.write(
    `${table([
      ['', 'requests', 'sent twice', 'analyses\' shared prefix', 'tokens', 'prompt tokens past a cached prefix', 'valid children', 'requests per valid child', 'tokens per valid child', 'pick on test', 'seed-pipeline on test', 'wall s'],
      ...rows.map((r) => [
        r.label,
        String(r.requests),
        String(r.repeated ?? '—'),
        r.analysisPrefix === undefined ? '—' : `${(100 * r.analysisPrefix).toFixed(0)}%`,
        String(r.tokens),
        String(r.uncached),
        String(r.validChildren),
        per(r.requests, r).toFixed(2),
        per(r.tokens, r).toFixed(0),
        r.pickTest?.toFixed(3) ?? '—',
        r.seedTest?.toFixed(3) ?? '—',
        r.seconds?.toFixed(0) ?? '—',
      ]),
    ])}\n`,
  );
  const [recorded, cluster, program] = rows as [RecordedRow, RecordedRow, RecordedRow];
  const replayed = cluster.repeated === 0 && (cluster.analysisPrefix ?? 0) >= 0.9 && (cluster.pickTest ?? 0) - (cluster.seedTest ?? 1) >= 0.1;
  process.stdout.write(
    `target: per cluster, no request sent twice, the analyses of a program share ≥ 90% as a prefix, and the pick ≥ 0.10 above the seed on test — ${replayed ? 'met' : 'NOT met'} (${cluster.repeated} twice, ${(100 * (cluster.analysisPrefix ?? 0)).toFixed(0)}%, ${((cluster.pickTest ?? 0) - (cluster.seedTest ?? 1)).toFixed(3)})\n`,
  );
  const ok = per(program.requests, program) <= 0.6 * per(recorded.requests, recorded) && per(program.tokens, program) <= 0.6 * per(recorded.tokens, recorded) && (program.pickTest ?? 0) - (program.seedTest ?? 1) >= 0.1;
  process.stdout.write(
    `target: per program, requests and tokens per valid child at most 0.60× the recorded run's, and the pick ≥ 0.10 above the seed on test — ${ok ? 'met' : 'NOT met'} (${(per(program.requests, program) / per(recorded.requests, recorded)).toFixed(2)}×, ${(per(program.tokens, program) / per(recorded.tokens, recorded)).toFixed(2)}×)\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printRecordedRows(await recordedRows());
  closeHostServices();
}
