// The offline agent changes how a pipeline program works: which edit it weighs most follows what the failed tasks
// missed, the kind of task that fails, the tree's other good programs and what the same edit did before.
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../../../engine/evaluate/evaluate.ts';
import { OfflineMetaAgent } from '../../../../engine/meta/offline/agent.ts';
import type { MissReport } from '../../../../engine/meta/offline/miss-analysis.ts';
import { readPipeline, writeStages } from '../../../../engine/meta/offline/stage-edit.ts';
import { candidates, structuralEdit } from '../../../../engine/meta/offline/structural.ts';
import type { EditOutcome, ParentContext } from '../../../../engine/meta/types.ts';
import { seededRandom } from '../../../../engine/random.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';

const seed = readProgramFiles(resolveProgram('pipeline').path);
const pipeline = readPipeline(seed)!;

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
    ...over,
  };
}

const report = (cut: number, neighbour: number, unseen: number, kinds: Partial<MissReport['kinds']> = {}): MissReport => ({
  failed: 10,
  traced: 10,
  misses: { cut, neighbour, unseen },
  kinds: { time: 0, entities: 0, count: 0, reason: 0, other: 10, ...kinds },
});

const weightOf = (list: ReturnType<typeof candidates>, key: string) => list.find((c) => c.key === key)?.weight ?? 0;

describe('structural edits', () => {
  it('weigh the edits that address what the failed tasks missed', () => {
    const r = () => 0.5;
    const unseen = candidates(context(), pipeline, report(0, 0, 10), r);
    const cut = candidates(context(), pipeline, report(10, 0, 0), r);
    const beside = candidates(context(), pipeline, report(0, 10, 0), r);
    // Never found: ask differently (pseudo-relevance feedback) before making room.
    expect(weightOf(unseen, 'stages+prfQuery')).toBeGreaterThan(weightOf(unseen, 'stages+mmrStage'));
    // Ranked but cut: make room (diversity, less expansion) before asking differently.
    expect(weightOf(cut, 'stages+mmrStage')).toBeGreaterThan(weightOf(cut, 'stages+prfQuery'));
    expect(weightOf(cut, 'stages-neighbourExpand')).toBeGreaterThan(weightOf(unseen, 'stages-neighbourExpand'));
    // Found only beside a shown unit: units found by their neighbours' words.
    const top = [...beside].sort((a, b) => b.weight - a.weight)[0]!;
    expect(top.key).toBe("store.units='windows'");
    // The packing stage is never removed.
    expect(unseen.some((c) => c.key === 'stages-packWhole')).toBe(false);
  });

  it('route the kind of task that fails most to a stage of its own, after fusion', () => {
    const list = candidates(context(), pipeline, report(5, 0, 5, { time: 6, other: 4 }), () => 0.5);
    const route = list.find((c) => c.kind === 'route')!;
    expect(route.what).toBe('route time tasks to timeBoost({ span: 1.5, when: 1.4 })');
    const names = readPipeline(route.make())!.stages.map((s) => s.name);
    expect(names.indexOf('routeByKind')).toBe(names.indexOf('rrfFuse') + 1);
  });

  it('take a stage from another good program of the tree (crossover)', () => {
    const texts = pipeline.stages.map((s) => s.text);
    const donor = writeStages(seed, [...texts.slice(0, 4), 'graphExpand({ seeds: 5, per: 3, decay: 0.5 })', ...texts.slice(4).map((t) => t.replace("render: 'compact'", "render: 'plain'"))]);
    const list = candidates(context({ donors: [{ node: 'n7', q: 0.9, files: donor }] }), pipeline, report(3, 3, 4), () => 0.5);
    const crossed = list.filter((c) => c.kind === 'crossover').map((c) => c.what);
    expect(crossed).toEqual(['take graphExpand({ seeds: 5, per: 3, decay: 0.5 }) from n7', "replace packWhole({ render: 'compact', groupBy: 'time' }) with packWhole({ render: 'plain', groupBy: 'time' }) from n7"]);
    // A better donor's parts weigh more than an insertion from the catalogue.
    expect(weightOf(list, 'crossover:graphExpand')).toBeGreaterThan(weightOf(list, 'stages+graphExpand'));
  });

  it("take the edit the evidence weighs most for a program's first child, and sample after that", () => {
    const task = { taskId: 't', env: 'e', instruction: 'do it', initial: {}, steps: [], outcome: { reward: 1, success: true }, meta: {} };
    const firsts = new Set(Array.from({ length: 10 }, (_, i) => structuralEdit(context({ exampleEpisode: task }), seededRandom('f', i))!.edits[0]!.path));
    // Update episodes that are tasks with outcomes: whole episodes, the procedures the agents follow.
    expect([...firsts]).toEqual(["store.units='episodes'"]);
    const tried = [{ node: 'n1', change: 'an earlier child', failed: 'changed nothing' }];
    const later = new Set(Array.from({ length: 10 }, (_, i) => structuralEdit(context({ exampleEpisode: task, tried }), seededRandom('f', i))!.edits[0]!.path));
    expect(later.size).toBeGreaterThan(1);
  });

  it('leave alone an edit that changed nothing before, and try again one that helped', () => {
    const inert: EditOutcome[] = [1, 2, 3].map((i) => ({ node: `n${i}`, parent: 'x', edits: [{ path: "store.units='windows'", from: "'steps'", to: "'windows'" }], delta: 0 }));
    // Past the first child, picks are sampled by weight (an earlier child exists).
    const tried = [{ node: 'n0', change: 'an earlier child', failed: 'changed nothing' }];
    const picks = (history: EditOutcome[]) =>
      Array.from({ length: 40 }, (_, i) => structuralEdit(context({ history, payloadMetadata: new Map(), tried }), seededRandom('t', i))!.edits[0]!.path);
    const without = picks([]).filter((p) => p === "store.units='windows'").length;
    const withInert = picks(inert).filter((p) => p === "store.units='windows'").length;
    const helped = picks([{ node: 'n1', parent: 'x', edits: [{ path: 'stages+timeBoost', from: '', to: 'timeBoost()' }], delta: 0.05 }]).filter((p) => p === 'stages+timeBoost').length;
    expect(without).toBeGreaterThan(3);
    expect(withInert).toBeLessThan(without / 3);
    expect(helped).toBeGreaterThan(picks([]).filter((p) => p === 'stages+timeBoost').length);
  });

  it("the offline agent edits a pipeline's structure, differently on a retry after a no-op, and still seeds the root", async () => {
    const agent = new OfflineMetaAgent();
    const first = await agent.propose(context());
    expect(first.files['index.ts']).not.toBe(seed['index.ts']);
    expect(first.description).toMatch(/^(insert|remove|swap|tune|route|crossover|store): /);
    expect(first.feedback?.chosen).toMatch(/^structural /);
    const again = await agent.propose(context({ tried: [{ node: 'step 1', change: first.description, failed: 'changed nothing' }] }));
    expect(again.description).not.toBe(first.description);
    const root = await agent.propose(context({ node: 'root', files: { 'index.ts': readProgramFiles(resolveProgram('no-memory').path)['index.ts']! } }));
    expect(root.description).toMatch(/^initial design: /);
  });
});
