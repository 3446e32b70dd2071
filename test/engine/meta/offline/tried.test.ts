// The offline agent never writes a change it already tried from the same parent: what it tried is read from the
// children's typed edits as the search records them (node, tried list), never from their descriptions — so a stage
// written over several lines (its description reads it on one line) or a child that was "a crossover into a
// pipeline, then an edit" is still known as tried.
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../../../engine/evaluate/evaluate.ts';
import { OfflineMetaAgent } from '../../../../engine/meta/offline/agent.ts';
import type { Reading } from '../../../../engine/meta/offline/reading.ts';
import { readPipeline, writeStages } from '../../../../engine/meta/offline/stage-edit.ts';
import { type Chosen, choose, pipelineCandidates } from '../../../../engine/meta/offline/choose.ts';
import { identity, lessonsFor } from '../../../../engine/meta/offline/lessons.ts';
import type { OfflineParent, Proposal } from '../../../../engine/meta/types.ts';
import { seededRandom } from '../../../../engine/random.ts';
import { triedFrom } from '../../../../engine/search/meta-context.ts';
import { SearchTree } from '../../../../engine/search/tree.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';

const episode = {
  taskId: 'c/session-1',
  env: 'e',
  instruction: 'a chat',
  initial: {},
  steps: [],
  outcome: { reward: 1, success: true },
  meta: { kind: 'dialogue' },
};

const evaluation = {
  score: 0.6,
  tasks: [],
  stats: { byScenario: {}, meanPayloadChars: 3900, retrieveP50Ms: 2 },
} as unknown as EvaluationResult;

function context(
  node: string,
  files: OfflineParent['files'],
  step: number,
  tree: SearchTree,
  design?: string,
): OfflineParent {
  return {
    node,
    files,
    q: 0.6,
    evaluation,
    payloads: new Map(),
    env: {
      name: 'chat',
      mode: 'offline',
      reward: 'r',
      budget: { maxChars: 4000, maxImages: 0 },
      agentId: 'a',
      deterministic: true,
      data: null,
    },
    explain: () => undefined,
    step,
    seed: 3,
    exampleEpisode: episode,
    ...(design ? { design } : {}),
    tried: triedFrom(tree, node),
  };
}

/** A tree with the parent under the root, and a way to record its children as the search records them. */
function treeOf(node: string): {
  tree: SearchTree;
  record: (step: number, p: Pick<Proposal, 'description' | 'edits'>) => void;
} {
  const tree = new SearchTree();
  tree.add({
    id: 'root',
    parent: null,
    kind: 'root',
    dir: 'programs/root',
    hash: 'root',
    step: 0,
    parentSnapshot: null,
    scores: [0],
    samples: [0],
  });
  tree.add({
    id: node,
    parent: 'root',
    kind: 'seed',
    dir: `programs/${node}`,
    hash: node,
    step: 0,
    parentSnapshot: 0,
    scores: [0.6],
    samples: [0],
  });
  const record = (step: number, p: Pick<Proposal, 'description' | 'edits'>) =>
    tree.add({
      id: `n${step}`,
      parent: node,
      kind: 'child',
      dir: `programs/n${step}`,
      hash: `n${step}`,
      step,
      parentSnapshot: 0.6,
      scores: [0.6],
      samples: [0],
      description: p.description,
      edits: p.edits,
    });
  return { tree, record };
}

/** Failed tasks whose payloads held the answer among too much: removing an expansion stage is among the first edits. */
const crowded: Reading = {
  scored: 30,
  failed: 10,
  traced: 10,
  found: 10,
  missing: 0,
  misses: {
    failed: 10,
    traced: 0,
    misses: { cut: 0, neighbour: 0, unseen: 0 },
    split: 0,
    kinds: { time: 0, entities: 0, count: 0, reason: 0, other: 10 },
  },
  fill: 0.9,
  truncated: 0,
  empty: 0,
  weak: [],
  dialogue: true,
  tasksWithOutcomes: false,
  repeats: 0,
  asks: { latest: 0, time: 0, names: 0 },
};

/** The agent's choice for a parent: every mode's candidates, lessons applied. */
function structuralEdit(ctx: OfflineParent, r: Reading, random: () => number): Chosen | undefined {
  const lessons = lessonsFor(ctx);
  return choose(ctx, ctx.files, pipelineCandidates(ctx, ctx.files, r, lessons), lessons, random);
}

describe('what the offline agent tried from a parent', () => {
  it('is never written again, whatever its description reads like (a stage over several lines)', () => {
    const seed = readProgramFiles(resolveProgram('pipeline').path);
    const texts = readPipeline(seed)!.stages.map((s) => s.text);
    // The neighbour expansion written over several lines, as a person (or a model) may write it.
    const files = writeStages(
      seed,
      texts.map((t) => (t.startsWith('neighbourExpand') ? t.replace(/, /g, ',\n    ') : t)),
    );
    expect(readPipeline(files)!.stages.some((s) => s.text.includes('\n'))).toBe(true);
    const { tree, record } = treeOf('seed-pipeline');
    const written: Chosen[] = [];
    for (let step = 1; step <= 10; step++) {
      const edit = structuralEdit(context('seed-pipeline', files, step, tree), crowded, seededRandom('tried', 1))!;
      written.push(edit);
      record(step, { description: `${edit.candidate.mode}: ${edit.candidate.what}`, edits: edit.edits });
    }
    expect(written.some((e) => e.edits[0]?.kind === 'stage-remove' && e.edits[0].key === 'neighbourExpand')).toBe(true);
    expect(new Set(written.map((e) => JSON.stringify(e.files))).size).toBe(written.length);
    // No step repeats an edit: each child's change (what it sets) is new from this parent.
    expect(new Set(written.map((e) => identity(e.edits))).size).toBe(written.length);
  });

  it('is known by its edits when the design was edited as its exact form', async () => {
    const files = readProgramFiles(resolveProgram('bm25').path);
    const { tree, record } = treeOf('seed-bm25');
    const agent = new OfflineMetaAgent();
    const written: Proposal[] = [];
    for (let step = 1; step <= 4; step++) {
      const p = await agent.propose(context('seed-bm25', files, step, tree, 'bm25'));
      written.push(p);
      record(step, p);
    }
    // Every child: bm25's exact form (a marker), then one edit of that pipeline, carried as a list (not a sentence).
    for (const p of written)
      expect(p.edits[0]).toEqual({ kind: 'design-into-pipeline', key: 'bm25', from: 'bm25', to: 'pipeline' });
    expect(written.every((p) => p.edits.length >= 2)).toBe(true);
    expect(new Set(written.map((p) => JSON.stringify(p.files))).size).toBe(written.length);
    expect(new Set(written.map((p) => identity(p.edits))).size).toBe(written.length);
  });
});
