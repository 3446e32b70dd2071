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
import { applyEdits } from '../../../../engine/meta/offline/apply-edit.ts';
import type { Candidate } from '../../../../engine/meta/offline/candidate.ts';
import { choose, pipelineCandidates } from '../../../../engine/meta/offline/choose.ts';
import { crossoverCandidates } from '../../../../engine/meta/offline/crossover.ts';
import { lessonsFor } from '../../../../engine/meta/offline/lessons.ts';
import { evidenceCandidates } from '../../../../engine/meta/offline/structural.ts';
import type { Edit, EditKind, EditOutcome, OfflineParent, TriedChild } from '../../../../engine/meta/types.ts';
import { seededRandom } from '../../../../engine/random.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { formOf, resolveProgram } from '../../../../memo-programs/registry.ts';

const seed = readProgramFiles(resolveProgram('pipeline').path);
const pipeline = readPipeline(seed)!;
const dialogueEpisode = {
  taskId: 'c/session-1',
  env: 'e',
  instruction: 'a chat',
  initial: {},
  steps: [],
  outcome: { reward: 1, success: true },
  meta: { kind: 'dialogue' },
};
const taskEpisode = {
  taskId: 't',
  env: 'e',
  instruction: 'do it',
  initial: {},
  steps: [],
  outcome: { reward: 1, success: true },
  meta: {},
};

function context(over: Partial<OfflineParent> = {}): OfflineParent {
  const evaluation = {
    score: 0.8,
    tasks: [],
    stats: { byScenario: {}, meanPayloadChars: 3900, retrieveP50Ms: 2 },
  } as unknown as EvaluationResult;
  return {
    node: 'seed-pipeline',
    files: seed,
    q: 0.8,
    evaluation,
    payloads: new Map(),
    env: {
      name: 'locomo',
      mode: 'offline',
      reward: 'r',
      budget: { maxChars: 4000, maxImages: 0 },
      agentId: 'a',
      deterministic: true,
      data: null,
    },
    explain: () => undefined,
    step: 1,
    seed: 1,
    exampleEpisode: dialogueEpisode,
    ...over,
  };
}

const misses = (
  cut: number,
  neighbour: number,
  unseen: number,
  kinds: Partial<MissReport['kinds']> = {},
  split = 0,
): MissReport => ({
  failed: 10,
  traced: 10,
  misses: { cut, neighbour, unseen },
  split,
  kinds: { time: 0, entities: 0, count: 0, reason: 0, other: 10, ...kinds },
});

/** A reading of 10 failed tasks: `found` of them had the answer in their payload. */
function reading(over: Partial<Reading> = {}): Reading {
  const found = over.found ?? 0;
  return {
    scored: 30,
    failed: 10,
    traced: 10,
    found,
    missing: 10 - found,
    misses: misses(0, 0, 0),
    fill: 0.9,
    truncated: 0,
    empty: 0,
    weak: [],
    dialogue: true,
    tasksWithOutcomes: false,
    repeats: 0,
    asks: { latest: 0.2, time: 0.2, names: 0.2 },
    ...over,
  };
}

type Candidates = Candidate[];
/** Every candidate the evidence and the tree's better programs give a parent (no sweep, no lessons). */
const candidates = (ctx: OfflineParent, p: typeof pipeline, r: Reading): Candidates => [
  ...evidenceCandidates(ctx, p, r),
  ...crossoverCandidates(ctx, p, r),
];
/** A candidate's edits applied to the seed pipeline. */
const make = (c: Candidate, files = seed) => applyEdits(files, c.edits)!.files;
/** The agent's choice for a parent: every mode's candidates, lessons applied. */
function structuralEdit(ctx: OfflineParent, r: Reading, random: () => number) {
  const lessons = lessonsFor(ctx);
  return choose(ctx, ctx.files, pipelineCandidates(ctx, ctx.files, r, lessons), lessons, random);
}
/** The candidate whose (first) edit is of this kind and key (and sets this value, for a store option). */
const find = (list: Candidates, kind: EditKind, key: string, to?: string) =>
  list.find((c) => c.edits[0]?.kind === kind && c.edits[0].key === key && (to === undefined || c.edits[0].to === to));
const weightOf = (list: Candidates, kind: EditKind, key: string, to?: string) => find(list, kind, key, to)?.weight ?? 0;
/** Children already written from the parent, with these edits and nothing in their descriptions. */
const triedAs = (edits: Edit[][]): TriedChild[] =>
  edits.map((e, j) => ({
    node: `n${j}`,
    edits: e,
    description: '(a description names nothing the agent reads)',
    delta: 0,
  }));

describe('structural edits', () => {
  it('try a second hop when failed tasks found one of their facts and missed another', () => {
    const split = candidates(context(), pipeline, reading({ misses: misses(0, 0, 10, {}, 8) }));
    const whole = candidates(context(), pipeline, reading({ misses: misses(0, 0, 10, {}, 0) }));
    expect(weightOf(split, 'stage-insert', 'hopExpand')).toBeGreaterThan(
      weightOf(whole, 'stage-insert', 'hopExpand') + 2,
    );
    expect(find(split, 'stage-insert', 'hopExpand')?.why).toMatch(/8 found one of their facts and missed another/);
  });

  it('weigh recall edits when failed payloads missed the answer, sharper payloads when they held it among too much', () => {
    const missing = candidates(context(), pipeline, reading({ found: 0, shownUnits: 9 }));
    const crowded = candidates(context(), pipeline, reading({ found: 10, shownUnits: 9 }));
    expect(weightOf(missing, 'stage-insert', 'prfQuery')).toBeGreaterThan(
      weightOf(crowded, 'stage-insert', 'prfQuery'),
    );
    expect(weightOf(crowded, 'stage-insert', 'mmrStage')).toBeGreaterThan(
      weightOf(missing, 'stage-insert', 'mmrStage'),
    );
    expect(weightOf(crowded, 'stage-tune', 'packWhole.maxUnits')).toBeGreaterThan(
      weightOf(missing, 'stage-tune', 'packWhole.maxUnits'),
    );
    expect(weightOf(crowded, 'stage-remove', 'neighbourExpand')).toBeGreaterThan(
      weightOf(missing, 'stage-remove', 'neighbourExpand'),
    );
    // Setting how many units a payload shows (unset so far) starts from what the parent shows now, and goes down.
    const fewer = find(crowded, 'stage-tune', 'packWhole.maxUnits');
    expect(fewer?.edits[0]).toMatchObject({ from: 9 });
    expect(fewer?.edits[0]?.to).toBeLessThan(9);
    // The packing stage is never removed.
    expect(find(missing, 'stage-remove', 'packWhole')).toBeUndefined();
  });

  it('follow gold units by id: found beside a shown unit calls for windows', () => {
    const beside = candidates(
      context(),
      pipeline,
      reading({ traced: 0, found: 0, missing: 0, misses: misses(0, 10, 0) }),
    );
    const top = [...beside].sort((a, b) => b.weight - a.weight)[0]!;
    expect(top.edits).toEqual([{ kind: 'store', key: 'units', from: "'steps'", to: "'windows'" }]);
  });

  it('offer edits that assume dialogue only on dialogue data, and whole past episodes only where episodes are tasks', () => {
    const kinds = { time: 6, other: 4 };
    const onDialogue = candidates(context(), pipeline, reading({ misses: misses(5, 0, 5, kinds) }));
    const onTasks = candidates(
      context({ exampleEpisode: taskEpisode }),
      pipeline,
      reading({ dialogue: false, tasksWithOutcomes: true, misses: misses(5, 0, 5, kinds) }),
    );
    const route = onDialogue.find((c) => c.edits[0]?.kind === 'route')!;
    expect(route.edits).toEqual([{ kind: 'route', key: 'time', from: '', to: 'timeBoost({ span: 1.5, when: 1.4 })' }]);
    expect(route.what).toBe('route time tasks to timeBoost({ span: 1.5, when: 1.4 })');
    const names = readPipeline(make(route))!.stages.map((s) => s.name);
    expect(names.indexOf('routeByKind')).toBe(names.indexOf('rrfFuse') + 1);
    for (const key of ['timeBoost', 'entityQueries']) {
      expect(find(onDialogue, 'stage-insert', key)).toBeDefined();
      expect(find(onTasks, 'stage-insert', key)).toBeUndefined();
    }
    expect(onTasks.some((c) => c.edits[0]?.kind === 'route')).toBe(false);
    expect(weightOf(onTasks, 'store', 'units', "'episodes'")).toBeGreaterThan(
      weightOf(onDialogue, 'store', 'units', "'episodes'") * 10,
    );
  });

  it('take a stage from a better pipeline of the tree, and the way a better design of another kind finds its units', () => {
    const texts = pipeline.stages.map((s) => s.text);
    const donor = writeStages(seed, [
      ...texts.slice(0, 4),
      'graphExpand({ seeds: 5, per: 3, decay: 0.5 })',
      ...texts.slice(4).map((t) => t.replace("render: 'compact'", "render: 'plain'")),
    ]);
    const list = candidates(context({ donors: [{ node: 'n7', q: 0.9, files: donor }] }), pipeline, reading());
    const crossed = list.filter((c) => c.edits[0]?.kind === 'crossover-stage');
    expect(crossed.map((c) => c.what)).toEqual([
      'take graphExpand({ seeds: 5, per: 3, decay: 0.5 }) from n7',
      "replace packWhole({ render: 'compact', groupBy: 'time' }) with packWhole({ render: 'plain', groupBy: 'time' }) from n7",
    ]);
    expect(crossed[0]?.edits).toEqual([
      {
        kind: 'crossover-stage',
        key: 'graphExpand',
        from: '',
        to: 'graphExpand({ seeds: 5, per: 3, decay: 0.5 })',
        donor: 'n7',
      },
    ]);
    expect(weightOf(list, 'crossover-stage', 'graphExpand')).toBeGreaterThan(
      weightOf(list, 'stage-insert', 'graphExpand'),
    );
    // A better trajectory-retrieval (not a pipeline): its units, whole episodes found by their instructions.
    const trajectory = readProgramFiles(resolveProgram('trajectory-retrieval').path);
    const fromDesign = candidates(
      context({
        exampleEpisode: taskEpisode,
        donors: [{ node: 'seed-trajectory-retrieval', q: 0.95, files: trajectory, design: 'trajectory-retrieval' }],
      }),
      pipeline,
      reading({ dialogue: false, tasksWithOutcomes: true }),
    );
    const design = find(fromDesign, 'crossover-design', 'trajectory-retrieval')!;
    expect(readPipeline(make(design))!.store).toMatchObject({
      units: "'episodes'",
      findBy: "'instruction'",
      index: "'dense'",
    });
    // The design crossed in, then the store options it sets, each typed.
    expect(design.edits[0]).toEqual({
      kind: 'crossover-design',
      key: 'trajectory-retrieval',
      from: '',
      to: 'trajectory-retrieval',
      donor: 'seed-trajectory-retrieval',
    });
    // Exactly the store options of the design's exact form that differ from this pipeline's (none left out).
    expect(design.edits.slice(1).map((e) => [e.kind, e.key, e.to])).toEqual([
      ['store', 'units', "'episodes'"],
      ['store', 'episodeText', "'trajectory'"],
      ['store', 'notes', 'true'],
      ['store', 'index', "'dense'"],
      ['store', 'findBy', "'instruction'"],
      ['store', 'embedChars', '1_000_000'],
    ]);
  });

  it("give a parent's children its untried edits in order of weight", () => {
    const ctx = context({ exampleEpisode: taskEpisode });
    const r = reading({ dialogue: false, tasksWithOutcomes: true, found: 6 });
    const seen: Edit[][] = [];
    for (let i = 0; i < 6; i++)
      seen.push(
        structuralEdit(context({ exampleEpisode: taskEpisode, tried: triedAs(seen) }), r, seededRandom('order', i))!
          .edits,
      );
    expect(new Set(seen.map((e) => JSON.stringify(e))).size).toBe(6);
    // The first is the weightiest (jitter aside): whole episodes for tasks with outcomes.
    expect(structuralEdit(ctx, r, seededRandom('order', 0))!.edits[0]).toMatchObject({
      kind: 'store',
      key: 'units',
      to: "'episodes'",
    });
  });

  it('strengthen a boost the questions ask for when failed payloads held the answer among others', () => {
    const texts = pipeline.stages.map((s) => s.text);
    const withRecency = readPipeline(
      writeStages(seed, [...texts.slice(0, -1), 'recencyBoost({ weight: 0.5 })', texts.at(-1) as string]),
    )!;
    const tune = (over: Partial<Reading>) =>
      weightOf(candidates(context(), withRecency, reading(over)), 'stage-tune', 'recencyBoost.weight');
    const asked = { asks: { latest: 1, time: 0, names: 0 } };
    expect(tune({ ...asked, found: 9 })).toBeGreaterThan(tune({ ...asked, found: 0 }));
    expect(tune({ ...asked, found: 9 })).toBeGreaterThan(tune({ asks: { latest: 0, time: 0, names: 0 }, found: 9 }));
  });

  it('cut whole sessions into steps when failed payloads held the answer among too much, not whole procedures', () => {
    const episodes = readPipeline(writeStoreOption(seed, 'units', "'episodes'"))!;
    const toSteps = (over: Partial<Reading>) =>
      weightOf(candidates(context(), episodes, reading(over)), 'store', 'units', "'steps'");
    expect(toSteps({ found: 9 })).toBeGreaterThan(toSteps({ found: 0 }));
    expect(toSteps({ found: 9 })).toBeGreaterThan(1);
    // Where episodes are tasks with outcomes, a whole episode is the procedure an agent replays.
    expect(toSteps({ found: 9, tasksWithOutcomes: true, dialogue: false })).toBe(0.2);
  });

  it('leave alone an edit that changed nothing before, and try again one that helped', () => {
    const windows: Edit = { kind: 'store', key: 'units', from: "'steps'", to: "'windows'" };
    const inert: EditOutcome[] = [1, 2, 3].map((i) => ({ node: `n${i}`, parent: 'x', edits: [windows], delta: 0 }));
    const r = reading({ traced: 0, found: 0, missing: 0, misses: misses(0, 10, 0) });
    const first = (history: EditOutcome[]) => structuralEdit(context({ history }), r, seededRandom('h', 1))!.edits;
    expect(first([])).toEqual([windows]);
    expect(first(inert)).not.toEqual([windows]);
    // The order a parent's children would take: an edit that helped elsewhere moves up it.
    const order = (history: EditOutcome[]) => {
      const seen: Edit[][] = [];
      for (let i = 0; i < 8; i++) {
        const e = structuralEdit(context({ history, tried: triedAs(seen) }), r, seededRandom('h', 1))!;
        seen.push(e.edits);
        if (e.edits[0]?.kind === 'stage-insert' && e.edits[0].key === 'recencyBoost') return i;
      }
      return 8;
    };
    const helped: EditOutcome[] = [
      {
        node: 'n1',
        parent: 'x',
        edits: [{ kind: 'stage-insert', key: 'recencyBoost', from: '', to: 'recencyBoost()' }],
        delta: 0.05,
      },
    ];
    expect(order(helped)).toBeLessThan(order([]));
  });

  it('the offline agent edits a pipeline, edits another design as its exact form, and still seeds the root', async () => {
    const agent = new OfflineMetaAgent();
    const first = await agent.propose(context());
    expect(first.files['index.ts']).not.toBe(seed['index.ts']);
    // The mode that chose the edit is typed on the proposal (the step line shows it from there, not from prose).
    expect(first.mode).toMatch(/^(evidence|extend|sweep|crossover)$/);
    const again = await agent.propose(
      context({
        tried: [{ node: 'step 1', edits: first.edits, failure: { check: 'no-op', detail: 'the same payloads' } }],
      }),
    );
    expect(again.edits).not.toEqual(first.edits);
    // bm25 is edited as its exact form (the same payloads): the marker, then one edit of that pipeline.
    const bm25 = await agent.propose(
      context({ node: 'seed-bm25', files: readProgramFiles(resolveProgram('bm25').path), design: 'bm25' }),
    );
    expect(bm25.edits[0]).toEqual({ kind: 'design-into-pipeline', key: 'bm25', from: 'bm25', to: 'pipeline' });
    expect(bm25.edits.length).toBeGreaterThanOrEqual(2);
    expect(bm25.description).toMatch(/on bm25's exact form/);
    const form = readProgramFiles(formOf('bm25')!.path);
    expect(applyEdits(form, bm25.edits.slice(1))!.files).toEqual(bm25.files);
    const root = await agent.propose(
      context({ node: 'root', files: { 'index.ts': readProgramFiles(resolveProgram('no-memory').path)['index.ts']! } }),
    );
    expect(root.mode).toBe('design');
    expect(root.edits).toEqual([expect.objectContaining({ kind: 'initial-design', from: '' })]);
  });
});
