// The offline agent changes how a pipeline program works: which edit it weighs most follows what the benchmark in
// front of it shows (the answer missing from failed payloads, or there among too much), edits that assume dialogue
// are offered only on dialogue, better programs of the tree lend parts (crossover, also from designs that are not
// pipelines), a parent's children take its untried edits in order, and history leaves inert edits alone.
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../../../engine/evaluate/evaluate.ts';
import { OfflineMetaAgent } from '../../../../engine/meta/offline/agent.ts';
import type { MissReport } from '../../../../engine/meta/offline/miss-analysis.ts';
import type { Reading } from '../../../../engine/meta/offline/reading.ts';
import { readPipeline, writeStages, writeStoreOption } from '../../../../engine/meta/offline/stage-edit.ts';
import { candidates, structuralEdit } from '../../../../engine/meta/offline/structural.ts';
import type { EditOutcome, ParentContext } from '../../../../engine/meta/types.ts';
import { seededRandom } from '../../../../engine/random.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';

const seed = readProgramFiles(resolveProgram('pipeline').path);
const pipeline = readPipeline(seed)!;
const dialogueEpisode = { taskId: 'c/session-1', env: 'e', instruction: 'a chat', initial: {}, steps: [], outcome: { reward: 1, success: true }, meta: { kind: 'dialogue' } };
const taskEpisode = { taskId: 't', env: 'e', instruction: 'do it', initial: {}, steps: [], outcome: { reward: 1, success: true }, meta: {} };

function context(over: Partial<ParentContext> = {}): ParentContext {
  const evaluation = { score: 0.8, tasks: [], stats: { byScenario: {}, meanPayloadChars: 3900, retrieveP50Ms: 2 } } as unknown as EvaluationResult;
  return {
    node: 'seed-pipeline',
    files: seed,
    q: 0.8,
    evaluations: 1,
    evaluation,
    payloads: new Map(),
    env: { name: 'locomo', mode: 'offline', reward: 'r', budget: { maxChars: 4000, maxImages: 0 }, agentId: 'a', deterministic: true, data: null },
    explain: () => undefined,
    envDescription: 'e',
    step: 1,
    seed: 1,
    exampleEpisode: dialogueEpisode,
    ...over,
  };
}

const misses = (cut: number, neighbour: number, unseen: number, kinds: Partial<MissReport['kinds']> = {}, split = 0): MissReport => ({
  failed: 10,
  traced: 10,
  misses: { cut, neighbour, unseen },
  split,
  kinds: { time: 0, entities: 0, count: 0, reason: 0, other: 10, ...kinds },
});

/** A reading of 10 failed tasks: `found` of them had the answer in their payload. */
function reading(over: Partial<Reading> = {}): Reading {
  const found = over.found ?? 0;
  return { scored: 30, failed: 10, traced: 10, found, missing: 10 - found, misses: misses(0, 0, 0), fill: 0.9, truncated: 0, empty: 0, weak: [], dialogue: true, tasksWithOutcomes: false, repeats: 0, asks: { latest: 0.2, time: 0.2, names: 0.2 }, ...over };
}

const weightOf = (list: ReturnType<typeof candidates>, key: string) => list.find((c) => c.key === key)?.weight ?? 0;

describe('structural edits', () => {
  it('try a second hop when failed tasks found one of their facts and missed another', () => {
    const r = () => 0.5;
    const split = candidates(context(), pipeline, reading({ misses: misses(0, 0, 10, {}, 8) }), r);
    const whole = candidates(context(), pipeline, reading({ misses: misses(0, 0, 10, {}, 0) }), r);
    expect(weightOf(split, 'stages+hopExpand')).toBeGreaterThan(weightOf(whole, 'stages+hopExpand') + 2);
    expect(split.find((c) => c.key === 'stages+hopExpand')?.why).toMatch(/8 found one of their facts and missed another/);
  });

  it('weigh recall edits when failed payloads missed the answer, sharper payloads when they held it among too much', () => {
    const r = () => 0.5;
    const missing = candidates(context(), pipeline, reading({ found: 0 }), r);
    const crowded = candidates(context(), pipeline, reading({ found: 10 }), r);
    expect(weightOf(missing, 'stages+prfQuery')).toBeGreaterThan(weightOf(crowded, 'stages+prfQuery'));
    expect(weightOf(crowded, 'stages+mmrStage')).toBeGreaterThan(weightOf(missing, 'stages+mmrStage'));
    expect(weightOf(crowded, 'packWhole.maxUnits')).toBeGreaterThan(weightOf(missing, 'packWhole.maxUnits'));
    expect(weightOf(crowded, 'stages-neighbourExpand')).toBeGreaterThan(weightOf(missing, 'stages-neighbourExpand'));
    // Setting how many units a payload shows starts from what the parent shows now, and goes down.
    const fewer = crowded.find((c) => c.key === 'packWhole.maxUnits');
    expect(fewer?.edits[0]?.to).toBeLessThan(9);
    // The packing stage is never removed.
    expect(missing.some((c) => c.key === 'stages-packWhole')).toBe(false);
  });

  it('follow gold units by id: found beside a shown unit calls for windows', () => {
    const beside = candidates(context(), pipeline, reading({ traced: 0, found: 0, missing: 0, misses: misses(0, 10, 0) }), () => 0.5);
    const top = [...beside].sort((a, b) => b.weight - a.weight)[0]!;
    expect(top.key).toBe("store.units='windows'");
  });

  it('offer edits that assume dialogue only on dialogue data, and whole past episodes only where episodes are tasks', () => {
    const kinds = { time: 6, other: 4 };
    const onDialogue = candidates(context(), pipeline, reading({ misses: misses(5, 0, 5, kinds) }), () => 0.5);
    const onTasks = candidates(context({ exampleEpisode: taskEpisode }), pipeline, reading({ dialogue: false, tasksWithOutcomes: true, misses: misses(5, 0, 5, kinds) }), () => 0.5);
    const route = onDialogue.find((c) => c.kind === 'route')!;
    expect(route.what).toBe('route time tasks to timeBoost({ span: 1.5, when: 1.4 })');
    const names = readPipeline(route.make())!.stages.map((s) => s.name);
    expect(names.indexOf('routeByKind')).toBe(names.indexOf('rrfFuse') + 1);
    for (const key of ['stages+timeBoost', 'stages+entityQueries']) {
      expect(onDialogue.some((c) => c.key === key)).toBe(true);
      expect(onTasks.some((c) => c.key === key)).toBe(false);
    }
    expect(onTasks.some((c) => c.kind === 'route')).toBe(false);
    expect(weightOf(onTasks, "store.units='episodes'")).toBeGreaterThan(weightOf(onDialogue, "store.units='episodes'") * 10);
  });

  it('take a stage from a better pipeline of the tree, and the way a better design of another kind finds its units', () => {
    const texts = pipeline.stages.map((s) => s.text);
    const donor = writeStages(seed, [...texts.slice(0, 4), 'graphExpand({ seeds: 5, per: 3, decay: 0.5 })', ...texts.slice(4).map((t) => t.replace("render: 'compact'", "render: 'plain'"))]);
    const list = candidates(context({ donors: [{ node: 'n7', q: 0.9, files: donor }] }), pipeline, reading(), () => 0.5);
    const crossed = list.filter((c) => c.kind === 'crossover').map((c) => c.what);
    expect(crossed).toEqual(['take graphExpand({ seeds: 5, per: 3, decay: 0.5 }) from n7', "replace packWhole({ render: 'compact', groupBy: 'time' }) with packWhole({ render: 'plain', groupBy: 'time' }) from n7"]);
    expect(weightOf(list, 'crossover:graphExpand')).toBeGreaterThan(weightOf(list, 'stages+graphExpand'));
    // A better trajectory-retrieval (not a pipeline): its units, whole episodes found by their instructions.
    const trajectory = readProgramFiles(resolveProgram('trajectory-retrieval').path);
    const fromDesign = candidates(context({ exampleEpisode: taskEpisode, donors: [{ node: 'seed-trajectory-retrieval', q: 0.95, files: trajectory, design: 'trajectory-retrieval' }] }), pipeline, reading({ dialogue: false, tasksWithOutcomes: true }), () => 0.5);
    const design = fromDesign.find((c) => c.key === 'crossover:design:trajectory-retrieval')!;
    expect(readPipeline(design.make())!.store).toMatchObject({ units: "'episodes'", findBy: "'instruction'", index: "'dense'" });
  });

  it("give a parent's children its untried edits in order of weight", () => {
    const ctx = context({ exampleEpisode: taskEpisode });
    const r = reading({ dialogue: false, tasksWithOutcomes: true, found: 6 });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const edit = structuralEdit(context({ exampleEpisode: taskEpisode, tried: seen.map((change, j) => ({ node: `n${j}`, change, delta: 0 })) }), r, seededRandom('order', i))!;
      seen.push(`${edit.kind}: ${edit.what} (${edit.why})`);
    }
    expect(new Set(seen).size).toBe(6);
    // The first is the weightiest (jitter aside): whole episodes for tasks with outcomes.
    expect(structuralEdit(ctx, r, seededRandom('order', 0))!.edits[0]!.path).toBe("store.units='episodes'");
  });

  it('strengthen a boost the questions ask for when failed payloads held the answer among others', () => {
    const texts = pipeline.stages.map((s) => s.text);
    const withRecency = readPipeline(writeStages(seed, [...texts.slice(0, -1), 'recencyBoost({ weight: 0.5 })', texts.at(-1) as string]))!;
    const tune = (over: Partial<Reading>) => weightOf(candidates(context(), withRecency, reading(over), () => 0.5), 'recencyBoost.weight');
    const asked = { asks: { latest: 1, time: 0, names: 0 } };
    expect(tune({ ...asked, found: 9 })).toBeGreaterThan(tune({ ...asked, found: 0 }));
    expect(tune({ ...asked, found: 9 })).toBeGreaterThan(tune({ asks: { latest: 0, time: 0, names: 0 }, found: 9 }));
  });

  it('cut whole sessions into steps when failed payloads held the answer among too much, not whole procedures', () => {
    const episodes = readPipeline(writeStoreOption(seed, 'units', "'episodes'"))!;
    const toSteps = (over: Partial<Reading>) => weightOf(candidates(context(), episodes, reading(over), () => 0.5), "store.units='steps'");
    expect(toSteps({ found: 9 })).toBeGreaterThan(toSteps({ found: 0 }));
    expect(toSteps({ found: 9 })).toBeGreaterThan(1);
    // Where episodes are tasks with outcomes, a whole episode is the procedure an agent replays.
    expect(toSteps({ found: 9, tasksWithOutcomes: true, dialogue: false })).toBe(0.2);
  });

  it('leave alone an edit that changed nothing before, and try again one that helped', () => {
    const inert: EditOutcome[] = [1, 2, 3].map((i) => ({ node: `n${i}`, parent: 'x', edits: [{ path: "store.units='windows'", from: "'steps'", to: "'windows'" }], delta: 0 }));
    const r = reading({ traced: 0, found: 0, missing: 0, misses: misses(0, 10, 0) });
    const first = (history: EditOutcome[]) => structuralEdit(context({ history }), r, seededRandom('h', 1))!.edits[0]!.path;
    expect(first([])).toBe("store.units='windows'");
    expect(first(inert)).not.toBe("store.units='windows'");
    // The order a parent's children would take: an edit that helped elsewhere moves up it.
    const order = (history: EditOutcome[]) => {
      const seen: string[] = [];
      for (let i = 0; i < 8; i++) {
        const e = structuralEdit(context({ history, tried: seen.map((change, j) => ({ node: `n${j}`, change })) }), r, seededRandom('h', 1))!;
        seen.push(`${e.kind}: ${e.what} (${e.why})`);
        if (e.edits[0]?.path === 'stages+recencyBoost') return i;
      }
      return 8;
    };
    const helped = [{ node: 'n1', parent: 'x', edits: [{ path: 'stages+recencyBoost', from: '', to: 'recencyBoost()' }], delta: 0.05 }];
    expect(order(helped)).toBeLessThan(order([]));
  });

  it('the offline agent edits a pipeline, crosses another design into a pipeline first, and still seeds the root', async () => {
    const agent = new OfflineMetaAgent();
    const first = await agent.propose(context());
    expect(first.files['index.ts']).not.toBe(seed['index.ts']);
    expect(first.description).toMatch(/^(insert|remove|swap|tune|route|crossover|store): /);
    const again = await agent.propose(context({ tried: [{ node: 'step 1', change: first.description, failed: 'changed nothing' }] }));
    expect(again.description).not.toBe(first.description);
    const bm25 = await agent.propose(context({ node: 'seed-bm25', files: readProgramFiles(resolveProgram('bm25').path), design: 'bm25' }));
    expect(bm25.description).toMatch(/^crossover into a pipeline: bm25/);
    expect(readPipeline(bm25.files)!.store).toMatchObject({ index: "'bm25'" });
    const root = await agent.propose(context({ node: 'root', files: { 'index.ts': readProgramFiles(resolveProgram('no-memory').path)['index.ts']! } }));
    expect(root.description).toMatch(/^initial design: /);
  });
});
