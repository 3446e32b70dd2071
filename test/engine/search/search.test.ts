import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../engine/meta/model/agent.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import type { MetaAgent, OfflineParent, Proposal, TriedChild } from '../../../engine/meta/types.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { readMetaFile } from '../../../engine/search/meta-file.ts';
import { replay } from '../../../engine/search/replay.ts';
import type { RunFolder } from '../../../run-store/run-folder.ts';
import type { RunOptions } from '../../../engine/search/run-options.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';
import { purposeOf } from '../../support/recorded-session.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => closeHostServices());

function setup(options: Partial<RunOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'search-'));
  dirs.push(dir);
  return setupIn(dir, options);
}

/** The toy run's folder in `dir`, with the options every test here starts from. */
function setupIn(dir: string, options: Partial<RunOptions> = {}) {
  const { folder, opts } = createToyRun(dir, {
    budget: 6,
    repairAttempts: 3,
    quickExamTasks: 3,
    testWinner: true,
    ...options,
  });
  return { folder, opts, env: new ToyEnvironment({ maxChars: 2000, maxImages: 0 }) };
}

describe('tree search, offline', () => {
  // One uninterrupted search of the default setup, read by the first two tests (its result; the tree the resumed
  // run must match): a search of budget 6 is seconds of CPU (children are type-checked and quick-examined).
  let whole: { folder: RunFolder; s: Awaited<ReturnType<typeof runSearch>> };
  const wholeDir = mkdtempSync(join(tmpdir(), 'search-whole-'));
  beforeAll(async () => {
    const { folder, opts, env } = setupIn(wholeDir);
    const s = await runSearch({
      env,
      services: offlineServices(),
      meta: new OfflineMetaAgent(),
      folder,
      options: opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
    });
    whole = { folder, s };
  }, 120_000);
  afterAll(() => rmSync(wholeDir, { recursive: true, force: true }));

  it('evaluates root and seeds, spends the budget, and tests the selected program', async () => {
    const { folder, s } = whole;
    expect(s.steps).toBe(6);
    expect(s.generations + s.reEvaluations).toBe(6);
    // A step that wrote only children that changed nothing (at most 3 tries) ends without a node.
    expect(s.validGenerations + s.failedGenerations).toBeLessThanOrEqual(s.generations);
    expect(s.noOps).toBeGreaterThanOrEqual(s.generations - s.validGenerations - s.failedGenerations);
    expect(s.fullEvaluations).toBe(2 + s.reEvaluations + s.validGenerations);
    expect(s.root.validation).toBe(0);
    expect(s.winner.test).toBeDefined();
    expect(s.root.test).toBe(0);
    const events = readJournal(folder.journalPath).events;
    const actions = events.filter((e) => e.type === 'action');
    expect(actions).toHaveLength(6);
    for (const a of actions) expect(a.type === 'action' && a.candidates.length).toBeGreaterThan(0);
    expect(readdirSync(join(folder.dir, 'programs'))).toContain('root');
    expect(readdirSync(join(folder.dir, 'evidence', 'root'))).toEqual(['test-0', 'train-0']);
    // Each child keeps what the meta agent read and decided, for the viewer.
    const children = events.filter((e) => e.type === 'node' && e.kind === 'child');
    expect(children.length).toBe(s.validGenerations);
    for (const c of children) {
      const meta = c.type === 'node' ? readMetaFile(join(folder.dir, c.dir, 'meta.json')) : undefined;
      expect(meta?.node).toBe(c.type === 'node' && c.id);
      expect(meta?.feedback?.agent).toBe('offline');
      expect(meta?.feedback?.proposal).toBe(meta?.description);
    }
  });

  it('resumes an interrupted run to the same tree as an uninterrupted one', async () => {
    const a = whole;
    const b = setup();
    const crash = (step: number) => {
      if (step === 4) throw new Error('killed');
    };
    await expect(
      runSearch({
        env: b.env,
        services: offlineServices(),
        meta: new OfflineMetaAgent(),
        folder: b.folder,
        options: b.opts,
        models: resolveModels({}, {}),
        ledger: new CostLedger(),
        beforeStep: crash,
      }),
    ).rejects.toThrow('killed');
    expect(replay(readJournal(b.folder.journalPath).events).completedSteps).toBe(3);
    await runSearch({
      env: b.env,
      services: offlineServices(),
      meta: new OfflineMetaAgent(),
      folder: b.folder,
      options: b.opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
    });
    const tree = (f: RunFolder) =>
      [...replay(readJournal(f.journalPath).events).tree.nodes.values()].map((n) => [
        n.id,
        n.parent,
        n.scores,
        n.hash,
        n.testScore,
      ]);
    expect(tree(b.folder)).toEqual(tree(a.folder));
  });

  it("tells the next child a failed generation's check and detail the same way live and after a resume", async () => {
    /** Step 1's child does not export a program (its quick examination fails); later children are the seed's own code. */
    class Recording implements MetaAgent<'offline'> {
      readonly mode = 'offline' as const;
      readonly reads = ['offline'] as const;
      readonly seen: { step: number; tried: TriedChild[] }[] = [];
      async propose(ctx: OfflineParent): Promise<Proposal> {
        this.seen.push({ step: ctx.step, tried: ctx.tried ?? [] });
        const files =
          ctx.step === 1
            ? { 'index.ts': 'export const nothing = 1;\n' }
            : { ...ctx.files, 'index.ts': `${ctx.files['index.ts']}\n// step ${ctx.step}\n` };
        return {
          files,
          description: `child of step ${ctx.step}`,
          edits: [{ kind: 'model', key: 'program', from: '', to: `child of step ${ctx.step}` }],
        };
      }
      async repair(): Promise<Proposal | null> {
        return null;
      }
    }
    const options = { budget: 3, repairAttempts: 0, testWinner: false, seeds: [] };
    const a = setup(options);
    const live = new Recording();
    await runSearch({
      env: a.env,
      services: offlineServices(),
      meta: live,
      folder: a.folder,
      options: a.opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
    });
    const b = setup(options);
    const resumed = new Recording();
    const crash = (step: number) => {
      if (step === 2) throw new Error('killed');
    };
    await expect(
      runSearch({
        env: b.env,
        services: offlineServices(),
        meta: new Recording(),
        folder: b.folder,
        options: b.opts,
        models: resolveModels({}, {}),
        ledger: new CostLedger(),
        beforeStep: crash,
      }),
    ).rejects.toThrow('killed');
    await runSearch({
      env: b.env,
      services: offlineServices(),
      meta: resumed,
      folder: b.folder,
      options: b.opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
    });
    // What step 2 was told, the run's own folder written as <run> (the two runs are in different folders).
    const told = (r: Recording, dir: string) =>
      JSON.parse(JSON.stringify(r.seen.find((x) => x.step === 2)?.tried).replaceAll(dir, '<run>'));
    expect(told(live, a.folder.dir)).toEqual([
      {
        node: 'step 1',
        step: 1,
        edits: [],
        failure: { check: 'interface', detail: expect.stringContaining('no default export') },
      },
    ]);
    expect(told(resumed, b.folder.dir)).toEqual(told(live, a.folder.dir));
  });
});

describe('tree search with a model meta agent', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await OpenAITestServer.start();
  });
  afterAll(() => server.close());

  const goodProgram = [
    '// file: index.ts',
    "import { defineMemo } from 'automemo/contract';",
    'export const config = { maxChars: 2000 };',
    'const lines: string[] = [];',
    'export default defineMemo({',
    '  update(episode) { for (const s of episode.steps) lines.push(s.action); },',
    '  retrieve(task) { const door = /door-\\d+/.exec(task.instruction)?.[0] ?? ""; return { text: lines.filter((l) => l.includes(`${door} `)).join("\\n").slice(0, config.maxChars), images: [] }; },',
    '});',
  ].join('\n');
  const analysis = JSON.stringify({
    relevance: [{ taskId: 'w1/door-1', label: 'missing' }],
    weaknesses: ['returns whole episodes'],
    suggestions: [{ priority: 1, change: 'return only the line for the door asked about' }],
  });
  const cluster = (name: string) => ({
    cluster: name,
    relevance: [{ taskId: `${name}/door-0`, label: 'missing' }],
    weaknesses: ['returns whole episodes'],
    suggestions: [{ priority: 1, change: 'return only the line for the door asked about' }],
  });
  const programAnalysis = JSON.stringify({
    clusters: [cluster('w1'), cluster('w2')],
    summary: 'Return the one matching line.',
    changes: [{ change: 'filter lines by door', why: 'both clusters miss it' }],
  });

  it('analyses every cluster in one call, generates in another (the two-call option), repairs bad code, survives 429/500/broken JSON, and journals every call with its cost', async () => {
    const { folder, opts, env } = setup({ budget: 1, meta: 'model', seeds: ['trajectory-retrieval'] });
    let generation = 0;
    server.onChat = (body) => {
      const purpose = purposeOf(body);
      if (purpose === 'program-analysis') return { content: programAnalysis };
      if (purpose === 'generation') {
        generation++;
        // First a program that does not type-check; the repair prompt then gets the report.
        return {
          content:
            generation === 1
              ? '```ts\n// file: index.ts\nexport default 42 as unknown as number + "x";\n```'
              : `\`\`\`ts\n${goodProgram}\n\`\`\``,
        };
      }
      if (purpose === 'repair') return { content: `Here you go:\n\`\`\`ts\n${goodProgram}\n\`\`\``, delayMs: 300 };
      return { content: '{}' };
    };
    // The first analysis call meets a 429 then a 500 (the SDK retries), then broken JSON (the agent asks again).
    server.chatQueue.push({ status: 429 }, { status: 500 }, { content: '{"relevance": [ broken' });
    const models = resolveModels(
      {},
      {
        OPENAI_BASE_URL: server.baseURL,
        AUTOMEMO_META_MODEL: 'meta-1',
        AUTOMEMO_META_USD_PER_M_INPUT: '1',
        AUTOMEMO_META_USD_PER_M_OUTPUT: '2',
      },
    );
    const ledger = new CostLedger();
    // Make the policy generate from the seed at step 1.
    const s = await runSearch({
      env,
      services: offlineServices(),
      meta: new ModelMetaAgent(models.meta as never, { analysis: 'program' }),
      folder,
      options: { ...opts, ucb: { ...opts.ucb, cEval: 0 } },
      models,
      ledger,
    });
    expect(s.generations).toBe(1);
    expect(s.validGenerations).toBe(1);
    const events = readJournal(folder.journalPath).events;
    const calls = events.filter((e) => e.type === 'meta-call');
    const purposes = calls.map((c) => c.type === 'meta-call' && c.purpose);
    expect(purposes).toEqual(['analysis', 'analysis (retry 1)', 'generation', 'repair']);
    expect(calls.every((c) => c.type === 'meta-call' && c.ok && c.promptTokens > 0)).toBe(true);
    const exams = events.filter((e) => e.type === 'quick-exam');
    expect(exams.map((e) => e.type === 'quick-exam' && e.passed)).toEqual([false, true]);
    expect(ledger.byRole.get('meta')?.calls).toBe(4);
    expect(ledger.usd).toBeGreaterThan(0);
    expect(s.winner.validation).toBe(1);
    // The repair request carried the failure.
    const repairPrompt = server.chatRequests().find((b) => purposeOf(b) === 'repair')?.messages[1].content as string;
    expect(repairPrompt).toMatch(/Failure:\ninterface/);
    // The analysis of each cluster and the proposal are kept in the child's meta.json.
    const meta = readMetaFile(join(folder.dir, 'programs', 'n1', 'meta.json'));
    expect(meta?.attempts).toBe(2);
    expect(meta?.feedback?.clusters.map((c) => [c.scenario, c.tasks, c.summary])).toEqual([
      ['w1', 1, 'returns whole episodes'],
      ['w2', 1, 'returns whole episodes'],
    ]);
    expect(meta?.feedback?.clusters[0]?.analysis).toMatchObject({
      suggestions: [{ change: 'return only the line for the door asked about' }],
    });
    expect(meta?.feedback?.synthesis?.summary).toBe('Return the one matching line.');
    expect(meta?.feedback?.proposal).toContain('filter lines by door');
  });

  it('stops cleanly at --max-usd, keeping what was finished', async () => {
    const { folder, opts, env } = setup({ budget: 5, meta: 'model', maxUsd: 0.000001 });
    server.onChat = () => ({ content: analysis, usage: { prompt_tokens: 5000, completion_tokens: 10 } });
    const models = resolveModels(
      {},
      { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1', AUTOMEMO_META_USD_PER_M_INPUT: '1' },
    );
    const s = await runSearch({
      env,
      services: offlineServices(),
      meta: new ModelMetaAgent(models.meta as never),
      folder,
      options: { ...opts, ucb: { ...opts.ucb, cEval: 0 } },
      models,
      ledger: new CostLedger(),
    });
    expect(s.stopped).toMatch(/cap/);
    expect(s.steps).toBeLessThan(5);
    const events = readJournal(folder.journalPath).events;
    expect(events.some((e) => e.type === 'stopped')).toBe(true);
    expect(events.filter((e) => e.type === 'evaluation' && e.split === 'train').length).toBeGreaterThanOrEqual(2);
  });

  it('records a failed generation when the meta model stays broken, and carries on', async () => {
    const { folder, opts, env } = setup({ budget: 2, meta: 'model' });
    server.onChat = () => ({ content: 'I am not able to help with that.' });
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
    const s = await runSearch({
      env,
      services: offlineServices(),
      meta: new ModelMetaAgent(models.meta as never),
      folder,
      options: { ...opts, ucb: { ...opts.ucb, cEval: 0 } },
      models,
      ledger: new CostLedger(),
    });
    expect(s.failedGenerations).toBeGreaterThanOrEqual(1);
    const failed = readJournal(folder.journalPath).events.find((e) => e.type === 'generation-failed');
    expect(failed?.type === 'generation-failed' && failed.failure).toEqual({
      check: 'meta-agent',
      detail: expect.stringMatching(/could not be used after 3 tries/),
    });
  });
});
