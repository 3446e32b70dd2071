// What a search's validation can tell apart, and how it is spent: disjoint samples that together hold every validation
// task, a deterministic program never scored twice on a sample it was scored on (the policy stops offering its
// re-evaluation once every sample is scored), and the plan a search states before step 0.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { validationPlan } from '../../../engine/search/validation-sampler.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { offlineServices } from '../../support/services.ts';
import { createToyRun } from '../../support/toy-run.ts';

const work = mkdtempSync(join(tmpdir(), 'validation-samples-'));
afterAll(async () => {
  closeHostServices();
  rmSync(work, { recursive: true, force: true });
});

describe('the validation plan', () => {
  it('states the samples and the resolvable difference, and warns below 30 tasks', () => {
    const big = validationPlan(94, { evalFraction: 0.5, minEvalTasks: 30 }, true);
    expect(big).toMatchObject({ tasks: 94, perEvaluation: 47, samples: 2, deterministic: true });
    expect(big.resolvable).toBeCloseTo(1.96 * 0.5 / Math.sqrt(47), 3);
    expect(big.warning).toBeUndefined();
    const small = validationPlan(6, { evalFraction: 0.5, minEvalTasks: 30 }, true);
    expect(small).toMatchObject({ tasks: 6, perEvaluation: 6, samples: 1 });
    expect(small.warning).toMatch(/only 6 tasks.*±0\.40/);
  });
});

describe('a deterministic search', () => {
  it('scores each program on a validation sample at most once, and stops offering re-evaluations when none is left', async () => {
    const models = resolveModels({}, {});
    const services = offlineServices();
    const { env } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), { models, images: services.images, seed: 0, onNote: () => undefined });
    const { folder, opts } = createToyRun(join(work, 'run'), {
      env: 'vaults',
      budget: 8,
      seeds: ['bm25', 'trajectory-retrieval'],
      evalFraction: 0.25,
      minEvalTasks: 4,
      // Re-evaluation wins every step it is offered: the limit, not the policy, has to stop it.
      ucb: { cEval: 5, cGen: 0, lambda: 0, kappa: 1, minWidth: 2, seedsExpandable: true },
    });
    const s = await runSearch({ env, services, meta: new OfflineMetaAgent(), folder, options: opts, models, ledger: new CostLedger() });
    const events = readJournal(folder.journalPath).events;
    const plan = events.find((e) => e.type === 'validation');
    expect(plan).toMatchObject({ tasks: 16, perEvaluation: 4, samples: 4, deterministic: true });
    expect(s.reEvaluations).toBeGreaterThan(0);
    const taskSets = new Map<string, Set<string>[]>();
    for (const e of events) {
      if (e.type !== 'evaluation' || e.split !== 'train' || e.score === null) continue;
      const ids = readFileSync(join(folder.dir, e.evidence, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).taskId as string);
      taskSets.set(e.node, [...(taskSets.get(e.node) ?? []), new Set(ids)]);
    }
    for (const [node, sets] of taskSets) {
      expect(sets.length, node).toBeLessThanOrEqual(4);
      const all = sets.flatMap((x) => [...x]);
      // No task scored twice for one program: the samples it was scored on are disjoint.
      expect(new Set(all).size, node).toBe(all.length);
    }
    // Every sample of a node that has them all holds every validation task once.
    const full = [...taskSets.values()].find((sets) => sets.length === 4);
    expect(full && new Set(full.flatMap((x) => [...x])).size).toBe(16);
    // Once a node has scored every sample, no later action offered to re-evaluate it.
    const scoredAt = new Map<string, number>();
    for (const e of events) {
      if (e.type === 'evaluation' && e.split === 'train' && e.score !== null) scoredAt.set(e.node, (scoredAt.get(e.node) ?? 0) + 1);
      if (e.type === 'action') for (const c of e.candidates) if (c.kind === 'evaluate') expect(scoredAt.get(c.node) ?? 0, `step ${e.step}: ${c.node}`).toBeLessThan(4);
    }
    await env.close?.();
  }, 120_000);
});
