// An evaluation that scored nothing (the execution agent's tool down for every task) is recorded as unscored, with
// its reason: it changes no Q, n or N, the node is evaluated again, the LCB pick is the one the scored evaluations
// give, K unscored evaluations in a row stop the search (a resume carries on), and the viewer says so.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MemoryPayload, PartialRecorder } from '../../../memo-programs/contract.ts';
import { type EnvironmentInfo, InfraError, type TaskOutcome } from '../../../engine/environment/contract.ts';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import { runSearch, type SearchProgress } from '../../../engine/search/search.ts';
import { selectFinal } from '../../../engine/search/selection.ts';
import type { SearchTree } from '../../../engine/search/tree.ts';
import { DEFAULT_UCB, lcb, type UcbParams } from '../../../engine/search/ucb.ts';
import { MAX_UNSCORED_IN_A_ROW } from '../../../engine/search/unscored.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import type { JournalEvent } from '../../../engine/search/journal-events.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { replay } from '../../../engine/search/replay.ts';
import type { RunFolder } from '../../../run-store/run-folder.ts';
import type { RunOptions } from '../../../engine/search/run-options.ts';
import { readRun } from '../../../viewer/run-model.ts';
import { textSummary } from '../../../viewer/summary.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

/** The toy environment whose agent's tool can be taken down: every run then throws an InfraError. */
class FlakyToolEnvironment extends ToyEnvironment {
  down = false;

  // Not deterministic, so no outcome is served from the cache while the tool is down.
  override info(): EnvironmentInfo {
    return { ...super.info(), deterministic: false };
  }

  override async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    if (this.down) throw new InfraError(`toy tool is down (${task.taskId})`);
    return super.run(task, payload);
  }
}

const configEcho = join(repoRoot, 'test', 'support', 'programs', 'config-echo.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => closeHostServices());

function setup(options: Partial<RunOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'unscored-'));
  dirs.push(dir);
  // A seed whose every config edit changes its payload: children are evaluated, never no-ops.
  const { folder, opts } = createToyRun(dir, { seeds: [configEcho], ...options });
  return { folder, opts, env: new FlakyToolEnvironment({ maxChars: 2000, maxImages: 0 }) };
}

const search = (s: ReturnType<typeof setup>, extra: { beforeStep?: (step: number) => void; onEvent?: (e: JournalEvent, st: SearchProgress) => void } = {}) =>
  runSearch({ env: s.env, services: offlineServices(), meta: new OfflineMetaAgent(), folder: s.folder, options: s.opts, models: resolveModels({}, {}), ledger: new CostLedger(), ...extra });

const events = (folder: RunFolder) => readJournal(folder.journalPath).events;
const evaluations = (folder: RunFolder) => events(folder).filter((e): e is Extract<JournalEvent, { type: 'evaluation' }> => e.type === 'evaluation');
const actionAt = (folder: RunFolder, step: number) => events(folder).find((e): e is Extract<JournalEvent, { type: 'action' }> => e.type === 'action' && e.step === step);
/** Q and n of every evaluated node, and N: what the formulas see. */
const counts = (tree: SearchTree) => ({ N: tree.totalEvaluations(), nodes: tree.evaluated().map((n) => [n.id, n.scores.length, tree.q(n)]) });

describe('unscored evaluations', () => {
  it('a re-evaluation whose every task failed on infrastructure changes no Q, n or N, is retried, and leaves the LCB pick alone', async () => {
    // No generation pull (c_g = 0, λ = 0): step 1 re-evaluates the seed, the best program.
    const ucb: UcbParams = { ...DEFAULT_UCB, cGen: 0, lambda: 0 };
    const s = setup({ budget: 2, ucb });
    let before: ReturnType<typeof counts> | undefined;
    let after: ReturnType<typeof counts> | undefined;
    const summary = await search(s, {
      beforeStep: (step) => {
        s.env.down = step === 1;
      },
      onEvent: (e, st) => {
        if (e.type === 'action' && e.step === 1) before = counts(st.tree);
        if (e.type === 'step-done' && e.step === 1) after = counts(st.tree);
      },
    });
    const step1 = evaluations(s.folder).find((e) => e.step === 1);
    expect(step1?.score).toBeNull();
    expect(step1?.unscored).toMatch(/infrastructure failed all \d+ tasks: toy tool is down/);
    // Its evidence is kept, aside, so the index stays free for the evaluation that scores it.
    expect(step1?.evidence).toMatch(/train-1-unscored-1$/);
    expect(existsSync(join(s.folder.dir, step1?.evidence ?? 'missing', 'tasks.jsonl'))).toBe(true);
    expect(after).toEqual(before);
    // The tree did not change, so the policy picks the same action again, and this time it scores.
    expect(actionAt(s.folder, 2)).toMatchObject({ kind: 'evaluate', node: actionAt(s.folder, 1)?.node });
    const step2 = evaluations(s.folder).find((e) => e.step === 2);
    expect(step2?.score).not.toBeNull();
    expect(step2?.index).toBe(step1?.index);
    // The tree a resume rebuilds holds only scores; the pick and its LCB are those of the scored evaluations alone.
    const tree = replay(events(s.folder)).tree;
    const seed = [...tree.nodes.values()].find((n) => n.kind === 'seed');
    const scored = evaluations(s.folder).filter((e) => e.node === seed?.id && e.score !== null);
    expect(seed?.scores).toEqual(scored.map((e) => e.score));
    expect(tree.totalEvaluations()).toBe(evaluations(s.folder).filter((e) => e.score !== null).length);
    const final = events(s.folder).find((e) => e.type === 'final');
    const winner = selectFinal(tree, ucb);
    expect(final).toMatchObject({ winner: winner.id, lcb: lcb(tree.q(winner), winner.scores.length, tree.totalEvaluations(), ucb) });
    expect(summary.winner.validation).toBe(1);
    expect(summary.fullEvaluations).toBe(tree.totalEvaluations());
    expect(summary.unscored).toBe(1);
    expect(summary.failure).toBeUndefined();

    // The viewer says it: the node panel, the action log and the text report.
    const run = readRun(s.folder.dir);
    expect(run.nodes.find((n) => n.id === seed?.id)?.unscored).toEqual([{ step: 1, split: 'train', reason: step1?.unscored }]);
    expect(run.actions.find((a) => a.step === 1)?.unscored).toBe(step1?.unscored);
    expect(run.actions.find((a) => a.step === 1)?.result).toBeUndefined();
    expect(run.N).toBe(tree.totalEvaluations());
    expect(textSummary(run)).toContain(`unscored: ${seed?.id} validation evaluation at step 1: infrastructure failed all`);
  });

  it("a child whose first evaluation scored nothing is evaluated again at the next step, ahead of the policy", async () => {
    // c_e = 0: step 1 writes a child.
    const s = setup({ budget: 2, ucb: { ...DEFAULT_UCB, cEval: 0 } });
    await search(s, {
      beforeStep: (step) => {
        s.env.down = step === 1;
      },
    });
    expect(actionAt(s.folder, 1)?.kind).toBe('generate');
    const child = events(s.folder).find((e) => e.type === 'node' && e.kind === 'child');
    expect(child?.type === 'node' && child.id).toBe('n1');
    expect(evaluations(s.folder).find((e) => e.step === 1)).toMatchObject({ node: 'n1', score: null });
    expect(actionAt(s.folder, 2)).toMatchObject({ kind: 'evaluate', node: 'n1', candidates: [] });
    expect(actionAt(s.folder, 2)?.retry).toMatch(/n1 has no score yet/);
    expect(evaluations(s.folder).find((e) => e.step === 2)).toMatchObject({ node: 'n1', index: 0, score: expect.any(Number) });
    const tree = replay(events(s.folder)).tree;
    expect(tree.get('n1').scores).toHaveLength(1);
    expect(readRun(s.folder.dir).actions.find((a) => a.step === 2)?.retry).toMatch(/n1 has no score yet/);
  });

  it(`stops after ${MAX_UNSCORED_IN_A_ROW} unscored evaluations in a row with a clear message, and a resume carries on`, async () => {
    const s = setup({ budget: 6 });
    let afterInit: ReturnType<typeof counts> | undefined;
    const summary = await search(s, {
      beforeStep: (step) => {
        s.env.down = step >= 1;
      },
      onEvent: (e, st) => {
        if (e.type === 'step-done' && e.step === 0) afterInit = counts(st.tree);
      },
    });
    expect(summary.steps).toBe(MAX_UNSCORED_IN_A_ROW);
    expect(summary.failure).toMatch(new RegExp(`${MAX_UNSCORED_IN_A_ROW} evaluations in a row scored nothing \\(last: infrastructure failed all \\d+ tasks: toy tool is down`));
    expect(summary.failure).toMatch(/--resume/);
    expect(summary.stopped).toBe(summary.failure);
    expect(summary.unscored).toBe(MAX_UNSCORED_IN_A_ROW);
    expect(counts(replay(events(s.folder)).tree)).toEqual(afterInit);
    expect(events(s.folder).find((e) => e.type === 'stopped')).toMatchObject({ step: MAX_UNSCORED_IN_A_ROW, kind: 'infrastructure' });
    // An unfinished run has no final phase yet.
    expect(events(s.folder).some((e) => e.type === 'final')).toBe(false);

    // The tool is back: a resume replays the unscored lines (no scores), carries on and finishes the budget.
    s.env.down = false;
    const resumed = await search(s);
    expect(resumed.failure).toBeUndefined();
    expect(resumed.steps).toBe(6);
    const tree = replay(events(s.folder)).tree;
    expect(tree.totalEvaluations()).toBe(evaluations(s.folder).filter((e) => e.score !== null && e.split === 'train').length);
    for (const n of tree.nodes.values()) expect(n.scores.every((x) => typeof x === 'number')).toBe(true);
    expect(tree.awaitingFirstScore()).toEqual([]);
    expect(events(s.folder).some((e) => e.type === 'final')).toBe(true);
  });

  it('keeps its unscored streak through a kill: a resume stops at the evaluation that makes it too long', async () => {
    const s = setup({ budget: 6 });
    const down = (step: number) => {
      s.env.down = step >= 1;
    };
    // Two unscored evaluations (steps 1 and 2), then killed before step 3.
    await expect(
      search(s, {
        beforeStep: (step) => {
          if (step === MAX_UNSCORED_IN_A_ROW) throw new Error('killed');
          down(step);
        },
      }),
    ).rejects.toThrow('killed');
    expect(evaluations(s.folder).filter((e) => e.score === null)).toHaveLength(MAX_UNSCORED_IN_A_ROW - 1);
    // Still down: the resume's first evaluation is the third in a row.
    const resumed = await search(s, { beforeStep: down });
    expect(resumed.failure).toMatch(new RegExp(`^${MAX_UNSCORED_IN_A_ROW} evaluations in a row scored nothing`));
    expect(events(s.folder).find((e) => e.type === 'stopped')).toMatchObject({ step: MAX_UNSCORED_IN_A_ROW, kind: 'infrastructure' });
    expect(resumed.steps).toBe(MAX_UNSCORED_IN_A_ROW);
  });

  it('a search whose root and seeds all scored nothing says so, and a resume scores them first', async () => {
    const s = setup({ budget: 3 });
    s.env.down = true;
    await expect(search(s)).rejects.toThrow(/no program has a score yet: 3 evaluations in a row scored nothing/);
    expect(evaluations(s.folder).map((e) => e.score)).toEqual([null, null, null]);
    s.env.down = false;
    const resumed = await search(s);
    // Step 1 (done before the stop) retried the root in vain; the root and then the seed are still owed a first
    // score, so steps 2 and 3 retry them.
    const retried = [1, 2, 3].map((step) => [actionAt(s.folder, step)?.node, !!actionAt(s.folder, step)?.retry]);
    expect(retried).toEqual([['root', true], ['root', true], [resumed.seeds[0]?.id, true]]);
    expect(resumed.root.validation).toBe(0);
    expect(resumed.seeds[0]?.validation).toBe(1);
  });
});
