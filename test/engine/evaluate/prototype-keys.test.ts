// Keys that come from data — world, question, turn and task ids, scenarios, metric names — named after what an
// ordinary object inherits ("__proto__", "constructor", "hasOwnProperty"), everywhere data is grouped: the data
// environment (JSONL and one JSON document), a module environment, evaluation statistics, shard merges, the split
// report and CluE's assignments. Object.prototype is the same afterwards, every key is counted under its own name,
// and a program still compiles (a polluted Object.prototype.test broke every later esbuild call).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { evaluate } from '../../../api/evaluate.ts';
import { defineEnvironment } from '../../../engine/environment/define.ts';
import type { EvaluationResult } from '../../../engine/evaluate/evaluate.ts';
import { summarize } from '../../../engine/evaluate/stats.ts';
import { mergeShardResults } from '../../../engine/jobs/shards.ts';
import { applyOperations, emptyPool } from '../../../engine/meta/clue/pool.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { DataEnvironment } from '../../../envs/data/environment.ts';
import { splitReport } from '../../../envs/split.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { repoRoot } from '../../../foundation/paths.ts';

const KEYS = ['__proto__', 'constructor', 'hasOwnProperty'] as const;
const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'prototype-keys-'));
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

afterAll(() => {
  // On code that lets a key through, what it added must not leak into the next file this worker runs.
  for (const name of Object.getOwnPropertyNames(Object.prototype))
    if (!prototypeBefore.includes(name)) delete (Object.prototype as Record<string, unknown>)[name];
  rmSync(work, { recursive: true, force: true });
});

function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>).test).toBeUndefined();
  expect(({} as Record<string, unknown>).tasks).toBeUndefined();
}

const THINGS = ['violet umbrella', 'orange bicycle', 'silver kettle'];

/** A world named `id` whose turns and questions are named by KEYS (question ids made unique by `tag`). */
function dataWorld(id: string, tag: string) {
  return {
    id,
    speakers: ['Ana', 'Ben'],
    sessions: [
      {
        time: '2024-03-04T09:00:00Z',
        turns: KEYS.map((k, i) => ({ id: k, speaker: i % 2 ? 'Ben' : 'Ana', text: `${k} chose the ${THINGS[i]}.` })),
      },
      { time: '2024-03-11T09:00:00Z', turns: [{ id: `${tag}-later`, speaker: 'Ben', text: 'Nothing else happened.' }] },
    ],
    questions: KEYS.flatMap((scenario, s) =>
      Array.from({ length: 8 }, (_, i) => ({
        id: i === 0 && tag === 'a' ? KEYS[s] : `${tag}-${scenario}-${i}`,
        question: `What did ${KEYS[i % 3]} choose?`,
        scenario,
        answers: [THINGS[i % 3]],
        evidence: [KEYS[i % 3]],
      })),
    ),
  };
}

it('a data file whose ids and scenarios are __proto__, constructor, hasOwnProperty: JSONL and JSON document', async () => {
  const header = { name: 'proto', scoring: 'answer-containment', trainShare: 0.3 };
  const jsonl = join(work, 'proto.jsonl');
  writeFileSync(
    jsonl,
    `${[{ type: 'dataset', ...header }, ...KEYS.map((k, i) => ({ type: 'world', ...dataWorld(k, 'abc'[i] as string) }))].map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  const doc = join(work, 'proto.json');
  writeFileSync(doc, JSON.stringify({ dataset: header, worlds: KEYS.map((k, i) => dataWorld(k, 'abc'[i] as string)) }));

  for (const path of [jsonl, doc]) {
    const env = DataEnvironment.load({ path, models: offline, images: new ImageStore() });
    const byScenario = (env.info().data as { split: { byScenario: Record<string, { train: number; test: number }> } })
      .split.byScenario;
    for (const k of KEYS) {
      expect(Object.hasOwn(byScenario, k), `${path}: split stratum ${k}`).toBe(true);
      expect((byScenario[k]?.train ?? 0) + (byScenario[k]?.test ?? 0)).toBe(24);
    }
    expect((await env.worlds('test')).map((w) => w.id)).toEqual([...KEYS]);
    expect(env.scenario('__proto__')).toBe('__proto__');
    expect(env.explain('constructor')?.evidence?.[0]).toMatchObject({ id: '__proto__', session: 1 });
    expectPrototypeUntouched();
  }

  const result = await evaluate({ env: `data:${jsonl}`, program: 'bm25', workers: 0, out: join(work, 'data-eval') });
  expectPrototypeUntouched();
  for (const k of KEYS) expect(Object.hasOwn(result.stats.byScenario, k), `scenario ${k}`).toBe(true);
  expect(Object.values(result.stats.byScenario).reduce((n, s) => n + s.tasks, 0)).toBe(result.tasks.length);
  expect(result.score).toBeGreaterThan(0.5);
});

it('a module environment whose task ids, scenarios and metric names are __proto__, constructor, hasOwnProperty', async () => {
  const tasks = KEYS.flatMap((scenario) =>
    Array.from({ length: 10 }, (_, i) => ({
      id: i === 0 ? scenario : `${scenario}-${i}`,
      scenario,
      instruction: `Say the ${scenario} word ${i}.`,
      truth: `${scenario}-${i}`,
    })),
  );
  const definition = defineEnvironment({
    name: 'proto-tasks',
    summary: 'tasks named after what objects inherit',
    load: () => ({
      tasks,
      description: 'say the word',
      reward: 'the word said',
      agent: {
        id: 'parrot/1',
        run: async (task: { truth?: unknown }) => ({
          answer: String(task.truth),
          steps: [{ action: `say ${String(task.truth)}` }],
        }),
      },
      check: (_task: unknown, run: { answer?: string }) => ({
        reward: run.answer ? 1 : 0,
        metrics: Object.fromEntries(KEYS.map((k) => [k, 1])),
      }),
    }),
  });
  const result = await evaluate({ env: definition, program: 'bm25', workers: 0, out: join(work, 'module-eval') });
  expectPrototypeUntouched();
  for (const k of KEYS) expect(Object.hasOwn(result.stats.byScenario, k), `scenario ${k}`).toBe(true);
  for (const k of ['constructor', 'hasOwnProperty']) expect(result.stats.metrics[k], `metric ${k}`).toBe(1);
  expect(result.score).toBe(1);
});

it('statistics, shard merges, the split report and CluE assignments keep such keys as keys', async () => {
  const task = (taskId: string, scenario: string, world: string, reward: number) => ({
    taskId,
    world,
    scenario,
    reward,
    success: reward === 1,
    metrics: { [scenario]: reward },
    payloadChars: 1,
    payloadImages: 0,
    truncated: false,
    retrieveMs: 1,
    agentMs: 1,
    cached: false,
  });
  const usage = {
    primitives: Object.fromEntries(KEYS.map((k) => [k, { calls: 1, errors: 0, bytesIn: 1, bytesOut: 1, ms: 1 }])),
    kvBytes: 0,
    vectorBytes: 0,
    llmTokens: { prompt: 0, completion: 0 },
  };
  const part = (world: string, reward: number): EvaluationResult => {
    const tasks = KEYS.map((k) => task(`${world}/${k}`, k, world, reward));
    const worlds = [
      { world, episodes: 1, tasks: tasks.length, updateMs: 1, updateErrors: [], attempts: 1, usage, loadMs: 1 },
    ];
    const stats = summarize(tasks, worlds as never, {});
    return {
      program: { entry: 'p', hash: 'h' },
      env: {
        name: 'e',
        mode: 'offline',
        reward: 'r',
        budget: { maxChars: 1, maxImages: 0 },
        agentId: 'a',
        deterministic: true,
        data: {},
      },
      split: 'test',
      score: stats.score,
      stats,
      tasks,
      worlds: worlds as never,
      elapsedMs: 1,
    };
  };
  const merged = mergeShardResults([part('__proto__', 1), part('constructor', 0)], ['__proto__', 'constructor'], 5);
  expectPrototypeUntouched();
  for (const k of KEYS) {
    expect(merged.stats.byScenario[k]).toEqual({ tasks: 2, score: 0.5 });
    expect(Object.hasOwn(merged.stats.usage, k), `primitive ${k}`).toBe(true);
    expect(merged.stats.usage[k]?.calls).toBe(2);
  }
  expect(merged.stats.metrics.constructor).toBe(0.5);

  const report = splitReport(
    [...KEYS],
    (k) => k,
    (k) => k,
    { seed: 0, trainShare: 0.5 },
  );
  expect(Object.keys(report).sort()).toEqual([...KEYS].sort());
  expectPrototypeUntouched();

  const applied = applyOperations(
    emptyPool(),
    [{ op: 'create', id: 'c1', label: 'one', description: 'd' }],
    Object.fromEntries(KEYS.map((k) => [k, 'c1'])),
    [...KEYS],
    Object.fromEntries(KEYS.map((k) => [k, `about ${k}`])),
  );
  expectPrototypeUntouched();
  for (const k of KEYS) expect(Object.hasOwn(applied.pool.assignment, k), `assignment of ${k}`).toBe(true);

  // And a program still compiles, as it would on a host nothing touched.
  const c = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
  expect(c.ok).toBe(true);
});
