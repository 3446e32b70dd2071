// A search with several steps in flight against the local model server: the model calls of different steps
// overlap, every step is journaled once, and the tree is as complete as a one-at-a-time search's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../engine/meta/model/agent.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { SearchJournal } from '../../../engine/search/search-journal.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { replay } from '../../../engine/search/replay.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';
import { purposeOf } from '../../support/recorded-session.ts';

let server: OpenAITestServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(async () => {
  await server.close();
  closeHostServices();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every JSON reply fits every JSON purpose (analysis, synthesis, CluE); programs differ per call. */
function scriptedModel(latencyMs: number) {
  let programs = 0;
  server.onChat = (body) => {
    if (body.response_format?.type === 'json_object') {
      return {
        content: JSON.stringify({
          relevance: [],
          weaknesses: ['w'],
          suggestions: [{ priority: 1, change: 'filter by door' }],
          summary: 's',
          changes: [{ change: 'filter by door' }],
          summaries: [],
          operations: [],
          assign: {},
        }),
      };
    }
    programs++;
    const program = [
      '// file: index.ts',
      "import { defineMemo } from 'automemo/contract';",
      `export const config = { maxChars: 2000, variant: ${programs} };`,
      'const lines: string[] = [];',
      'export default defineMemo({',
      '  update(episode) { for (const s of episode.steps) lines.push(s.action); },',
      // Each program's payloads differ (its variant is in them), so no child is a no-op of another.
      '  retrieve(task) { const door = /door-\\d+/.exec(task.instruction)?.[0] ?? ""; return { text: `variant ${config.variant}\\n${lines.filter((l) => l.includes(`${door} `)).join("\\n")}`.slice(0, config.maxChars), images: [] }; },',
      '});',
    ].join('\n');
    return { content: `\`\`\`ts\n${program}\n\`\`\``, delayMs: latencyMs };
  };
}

async function searchWith(
  parallel: number,
  extra: {
    maxUsd?: number;
    budget?: number;
    analysis?: 'cluster' | 'program';
    ledger?: CostLedger;
    generateOnly?: boolean;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'parallel-'));
  dirs.push(dir);
  const { folder, opts } = createToyRun(dir, {
    budget: extra.budget ?? 4,
    meta: 'model',
    seeds: ['trajectory-retrieval'],
    parallel,
    repairAttempts: 0,
    quickExamTasks: 2,
    ...(extra.maxUsd ? { maxUsd: extra.maxUsd } : {}),
  });
  const models = resolveModels(
    {},
    { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1', AUTOMEMO_META_USD_PER_M_INPUT: '1' },
  );
  const meta = new ModelMetaAgent(models.meta as never, { analysis: extra.analysis ?? 'program' });
  const summary = await runSearch({
    env: new ToyEnvironment({ maxChars: 2000, maxImages: 0 }),
    services: offlineServices(),
    meta,
    folder,
    options: extra.generateOnly ? { ...opts, ucb: { ...opts.ucb, cEval: 0 } } : opts,
    models,
    ledger: extra.ledger ?? new CostLedger(),
  });
  return { summary, events: readJournal(folder.journalPath).events, folder };
}

describe('parallel search', () => {
  it('keeps several steps in flight: their model calls overlap, each step is journaled once, and no child is lost', async () => {
    scriptedModel(1500);
    const before = server.chatRequests().length;
    const { summary, events } = await searchWith(4);
    // No request was sent twice, however the steps in flight overlapped.
    const sent = server
      .chatRequests()
      .slice(before)
      .map((b) => JSON.stringify(b));
    expect(new Set(sent).size).toBe(sent.length);
    const r = replay(events);
    expect(r.doneSteps).toEqual([1, 2, 3, 4]);
    expect(
      events
        .filter((e) => e.type === 'action')
        .map((e) => e.step)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    // Generation calls of different steps were in the air at the same time.
    const generations = events.flatMap((e) =>
      e.type === 'meta-call' && e.purpose === 'generation' ? [{ step: e.step, from: e.t - e.ms, to: e.t }] : [],
    );
    const overlapping = generations.some((a) =>
      generations.some((b) => a.step !== b.step && a.from < b.to && b.from < a.to),
    );
    expect(overlapping).toBe(true);
    // As many children pass as when one step runs at a time: none is lost to another step's work.
    const sequential = await searchWith(1);
    expect(summary.steps).toBe(4);
    expect(summary.validGenerations).toBe(summary.generations);
    expect(sequential.summary.validGenerations).toBe(sequential.summary.generations);
    expect(summary.failedGenerations + sequential.summary.failedGenerations).toBe(0);
  }, 120_000);

  it('asks the same analyses of steps in flight once: the journal records the reuse, the ledger charges only what was sent', async () => {
    scriptedModel(800);
    const before = server.chatRequests().length;
    const ledger = new CostLedger();
    const { events, folder } = await searchWith(2, { budget: 2, analysis: 'cluster', ledger, generateOnly: true });
    const sent = server.chatRequests().slice(before);
    // Both steps wrote a child of the seed at once: the toy's two clusters were analysed once.
    expect(
      events.filter((e) => e.type === 'action').map((e) => (e.type === 'action' ? `${e.kind} ${e.node}` : '')),
    ).toEqual(['generate seed-trajectory-retrieval', 'generate seed-trajectory-retrieval']);
    const calls = events.flatMap((e) => (e.type === 'meta-call' ? [e] : []));
    const reused = calls.filter((c) => c.reused);
    expect(reused.map((c) => [c.step, c.purpose, c.reused?.step, c.reused?.purpose])).toEqual([
      [2, 'analysis', 1, 'analysis'],
      [2, 'analysis', 1, 'analysis'],
    ]);
    expect(sent.filter((b) => purposeOf(b) === 'analysis')).toHaveLength(2);
    expect(ledger.total.calls).toBe(sent.length);
    expect(ledger.total.calls).toBe(calls.length - reused.length);
    // A resumed run charges what the journal says was sent, not the reuses.
    const again = new SearchJournal(folder, new CostLedger());
    expect(again.state.ledger.total.calls).toBe(sent.length);
    again.close();
  }, 120_000);

  it('stops every step in flight at --max-usd, journaling the stop once and keeping what finished', async () => {
    scriptedModel(300);
    // Each prompt is priced ($1 per million input tokens); the cap is reached within the first steps.
    const { summary, events } = await searchWith(3, { maxUsd: 0.002, budget: 9 });
    expect(summary.stopped).toMatch(/cap/);
    expect(events.filter((e) => e.type === 'stopped')).toHaveLength(1);
    expect(summary.steps).toBeLessThan(9);
    // A stopped step leaves no half-written node: every node in the journal has its evaluation.
    const r = replay(events);
    for (const n of r.tree.nodes.values()) expect(n.scores.length, n.id).toBeGreaterThan(0);
  }, 120_000);
});
