// The offline agent learns from its children, from the tree's typed history alone: an edit that made a child worse
// is not offered again to that parent, its descendants or its siblings; an edit that helped is pushed further and
// carried to other parents; when the evidence points at nothing, the declared tunables are swept; and the mode that
// chose each edit is typed on the proposal.
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../../../engine/evaluate/evaluate.ts';
import { OfflineMetaAgent } from '../../../../engine/meta/offline/agent.ts';
import { pipelineCandidates } from '../../../../engine/meta/offline/choose.ts';
import { extendCandidates } from '../../../../engine/meta/offline/extend.ts';
import { identity, lessonsFor, ruledOut } from '../../../../engine/meta/offline/lessons.ts';
import { readEvidence } from '../../../../engine/meta/offline/reading.ts';
import type { Edit, EditOutcome, OfflineParent } from '../../../../engine/meta/types.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';

const seed = readProgramFiles(resolveProgram('pipeline').path);
const taskEpisode = { taskId: 't', env: 'e', instruction: 'do it', initial: {}, steps: [], outcome: { reward: 1, success: true }, meta: {} };

function context(over: Partial<OfflineParent> = {}): OfflineParent {
  const evaluation = { score: 0.8, tasks: [], stats: { byScenario: {}, meanPayloadChars: 3900, retrieveP50Ms: 2 } } as unknown as EvaluationResult;
  return {
    node: 'a',
    files: seed,
    q: 0.8,
    evaluation,
    payloads: new Map(),
    env: { name: 'desk', mode: 'offline', reward: 'r', budget: { maxChars: 4000, maxImages: 0 }, agentId: 'a', deterministic: true, data: null },
    explain: () => undefined,
    step: 1,
    seed: 1,
    exampleEpisode: taskEpisode,
    ...over,
  };
}

const episodes: Edit = { kind: 'store', key: 'units', from: "'steps'", to: "'episodes'" };
const k60: Edit = { kind: 'stage-tune', key: 'bm25Stage.k', from: 40, to: 60 };
// A tree: seed s, its written children a and b (siblings), a's child a1; c under another seed t.
const shape: EditOutcome[] = [
  { node: 'a', parent: 's', edits: [{ kind: 'stage-insert', key: 'dedupe', from: '', to: 'dedupe()' }], delta: 0.01 },
  { node: 'b', parent: 's', edits: [{ kind: 'stage-insert', key: 'mmrStage', from: '', to: 'mmrStage()' }], delta: 0.01 },
  { node: 'a1', parent: 'a', edits: [{ kind: 'stage-remove', key: 'neighbourExpand', from: 'x', to: '' }], delta: 0.01 },
  { node: 'c', parent: 't', edits: [{ kind: 'stage-insert', key: 'prfQuery', from: '', to: 'prfQuery()' }], delta: 0.01 },
];

describe('lessons from the tree', () => {
  it('keep an edit that lost away from that parent, its descendants and its siblings, not from elsewhere', () => {
    // Made from a (0.5 worse): the same setting, reached from any value, is ruled out near a.
    const history = [...shape, { node: 'x', parent: 'a', edits: [episodes], delta: -0.5 }];
    const again = [{ ...episodes, from: "'windows'" }];
    expect(ruledOut(lessonsFor({ node: 'a', history }), again)).toBe(true);
    expect(ruledOut(lessonsFor({ node: 'a1', history }), again)).toBe(true);
    expect(ruledOut(lessonsFor({ node: 'b', history }), again)).toBe(true);
    // Another branch, and the parent's parent (which has other children to learn from), may still try it.
    expect(ruledOut(lessonsFor({ node: 'c', history }), again)).toBe(false);
    expect(ruledOut(lessonsFor({ node: 's', history }), again)).toBe(false);
    // A child of a's sibling b (b1) is one edit away from b, itself one edit away from a: ruled out there too.
    const withB1 = [...history, { node: 'b1', parent: 'b', edits: [k60], delta: 0.01 }];
    expect(ruledOut(lessonsFor({ node: 'b1', history: withB1 }), again)).toBe(true);
    // Lost twice, on two branches: offered nowhere again.
    const twice = [...history, { node: 'y', parent: 'b', edits: [episodes], delta: -0.1 }];
    expect(ruledOut(lessonsFor({ node: 'c', history: twice }), again)).toBe(true);
    // An edit that changed nothing is not a loss, but it was tried from a.
    const inert = [...shape, { node: 'x', parent: 'a', edits: [episodes], delta: 0 }];
    expect(lessonsFor({ node: 'b', history: inert }).lost.size).toBe(0);
    expect(lessonsFor({ node: 'a', history: inert }).tried.has(identity([episodes]))).toBe(true);
  });

  it('keep a part of an edit that lost away where the whole is kept away, not an edit that adds something new', () => {
    const queries: Edit = { kind: 'stage-insert', key: 'choiceQueries', from: '', to: 'choiceQueries()' };
    const front: Edit = { kind: 'stage-insert', key: 'choiceEvidence', from: '', to: 'choiceEvidence()' };
    const history = [...shape, { node: 'x', parent: 'a', edits: [queries, front], delta: -0.06 }];
    // Either stage alone was measured in the pair that lost (friends-choices offered each alone after the pair lost).
    for (const node of ['a', 'b', 'a1']) {
      expect(ruledOut(lessonsFor({ node, history }), [front])).toBe(true);
      expect(ruledOut(lessonsFor({ node, history }), [queries])).toBe(true);
      // A change that was not part of the loss may still come with one that was.
      expect(ruledOut(lessonsFor({ node, history }), [front, k60])).toBe(false);
    }
    // Elsewhere in the tree, the parts stay on offer as the pair does.
    expect(ruledOut(lessonsFor({ node: 'c', history }), [front])).toBe(false);
  });

  it('do not offer a losing edit to the next child of the parent or of a sibling (the agent)', async () => {
    const agent = new OfflineMetaAgent();
    const first = await agent.propose(context());
    const lost: EditOutcome[] = [...shape, { node: 'x', parent: 'a', edits: first.edits, delta: -0.3 }];
    for (const node of ['a', 'b']) {
      for (let step = 2; step <= 3; step++) {
        const next = await agent.propose(context({ node, step, history: lost }));
        expect(identity(next.edits)).not.toBe(identity(first.edits));
      }
    }
  });

  it('push an edit that helped this parent further the same way, and carry what helped elsewhere over', () => {
    const history = [...shape, { node: 'a', parent: 's', edits: [k60], delta: 0.05 }, { node: 'b', parent: 's', edits: [episodes], delta: 0.04 }];
    const own = extendCandidates(lessonsFor({ node: 'a', history: history.slice(1) }), 'a');
    expect(own.find((c) => c.edits[0]?.key === 'bm25Stage.k')?.edits[0]).toMatchObject({ kind: 'stage-tune', from: 60, to: 90 });
    // b's gain carried to its sibling a, weighted above an unrelated helper.
    const carried = own.find((c) => identity(c.edits) === identity([episodes]));
    expect(carried?.mode).toBe('extend');
    expect(carried?.why).toMatch(/a sibling/);
  });

  it('sweep the declared tunables once the evidence points at nothing untried, and say so in the proposal', async () => {
    const ctx = context();
    const r = readEvidence(ctx);
    const lessons = lessonsFor(ctx);
    // Every edit the evidence, the tree's helpers and its better programs point at, already tried from this parent.
    const pointed = pipelineCandidates(ctx, seed, r, lessons).filter((c) => c.mode !== 'sweep');
    expect(pointed.length).toBeGreaterThan(3);
    const tried = pointed.map((c, i) => ({ node: `n${i}`, edits: c.edits, description: '' }));
    const agent = new OfflineMetaAgent();
    const seen: Edit[][] = [];
    for (let step = 1; step <= 4; step++) {
      const p = await agent.propose({ ...ctx, step, tried: [...tried, ...seen.map((edits, i) => ({ node: `s${i}`, edits, description: '' }))] });
      expect(p.mode).toBe('sweep');
      expect(p.feedback?.chosen).toMatch(/^sweep /);
      expect(p.edits).toHaveLength(1);
      expect(['stage-tune', 'store']).toContain(p.edits[0]?.kind);
      seen.push(p.edits);
    }
    // Each step sweeps another point of the declared ranges: none repeats.
    expect(new Set(seen.map((e) => identity(e))).size).toBe(seen.length);
  });
});
