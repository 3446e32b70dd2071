// A search killed at every step boundary and resumed each time ends as the uninterrupted search does, and decides
// the same way on the way: at each boundary the state its journal folds to is the uninterrupted one's at that
// boundary (which is also the state the uninterrupted search held live), and every meta-agent view of a parent it
// built after a resume — what was tried, the edit history, the inspirations, the donors, the evidence — is the one the
// uninterrupted search built at that step. Offline agent, the toy environment, a small budget: seconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EnvironmentInfo } from '../../../engine/environment/contract.ts';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import type { MetaAgent, ParentPart, ParentView, Proposal } from '../../../engine/meta/types.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { JournalEvent } from '../../../engine/search/journal-events.ts';
import { replay } from '../../../engine/search/replay.ts';
import { runSearch } from '../../../engine/search/search.ts';
import type { SearchState } from '../../../engine/search/search-state.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { readJournal } from '../../../run-store/journal.ts';
import type { RunFolder } from '../../../run-store/run-folder.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

const BUDGET = 4;

/** The toy environment, said not to be deterministic: children are told apart by their quick examination's payloads. */
class UnsureToy extends ToyEnvironment {
  override info(): EnvironmentInfo {
    return { ...super.info(), deterministic: false };
  }
}

/** The offline agent, given both parts of the parent's view; every view it is given is kept, by step. */
class Recording implements MetaAgent<ParentPart> {
  readonly mode = 'offline' as const;
  readonly reads = ['model', 'offline'] as const;
  readonly seen = new Map<number, unknown[]>();
  private readonly inner = new OfflineMetaAgent();

  constructor(private readonly runDir: string) {}

  async propose(ctx: ParentView<ParentPart>): Promise<Proposal> {
    this.keep(ctx);
    return this.inner.propose(ctx);
  }

  async repair(
    child: Proposal,
    report: QuickExamReport,
    ctx: ParentView<ParentPart>,
    attempt: number,
  ): Promise<Proposal | null> {
    this.keep(ctx);
    return this.inner.repair(child, report, ctx, attempt);
  }

  private keep(ctx: ParentView<ParentPart>): void {
    this.seen.set(ctx.step, [...(this.seen.get(ctx.step) ?? []), plain(ctx, this.runDir)]);
  }
}

/** Times (they differ between any two runs), the outcome cache's hits, and the run's own folder, left out. */
const VARIES = /Ms$|MsPerEpisode$|^ms$|^t$|^cached$|^pid$|^startedAt$/;

/** A value as data: functions dropped, Maps and Sets as entries, timings left out, the run folder as <run>. */
function plain(value: unknown, runDir: string): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'function') return undefined;
    if (typeof v === 'string') return v.replaceAll(runDir, '<run>');
    if (v instanceof Map)
      return [...v.entries()]
        .map(([k, x]) => [walk(k), walk(x)])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    if (v instanceof Set) return [...v].map(walk).sort();
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (!VARIES.test(k) && typeof x !== 'function') out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}

/** What the search decides from, as data (what this session did aside: its step count, its lines' times). */
function stateOf(s: SearchState, runDir: string): unknown {
  const { sessionSteps: _session, evaluations, ...rest } = s;
  // An evaluation's statistics hold timings; its place, sample, score and evidence are what counts.
  const scored = evaluations.map(({ node, split, index, score, tasks, evidence, sampleSeed }) => ({
    node,
    split,
    index,
    score,
    tasks,
    evidence,
    sampleSeed,
  }));
  return plain(
    {
      ...rest,
      evaluations: scored,
      ledger: s.ledger.total,
      resampling: s.tree.resampling,
      failed: s.tree.failed,
      noops: s.tree.noops,
    },
    runDir,
  );
}

/** The journal up to the line that finished `step` (0: step 0). */
const upTo = (events: JournalEvent[], step: number) =>
  events.slice(0, events.findIndex((e) => e.type === 'step-done' && e.step === step) + 1);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => closeHostServices());

function run(env: ToyEnvironment) {
  const dir = mkdtempSync(join(tmpdir(), 'every-step-'));
  dirs.push(dir);
  const { folder, opts } = createToyRun(dir, {
    budget: BUDGET,
    repairAttempts: 1,
    quickExamTasks: 2,
    testWinner: false,
  });
  const meta = new Recording(dir);
  const search = (beforeStep?: (step: number) => void, onEvent?: (e: JournalEvent, s: SearchState) => void) =>
    runSearch({
      env,
      services: offlineServices(),
      meta,
      folder,
      options: opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
      ...(beforeStep ? { beforeStep } : {}),
      ...(onEvent ? { onEvent: (e, p) => onEvent(e, p.state) } : {}),
    });
  return { dir, folder, meta, search };
}

const journal = (f: RunFolder) => readJournal(f.journalPath).events;

describe.each([
  ['deterministic', () => new ToyEnvironment({ maxChars: 2000, maxImages: 0 })],
  ['not deterministic', () => new UnsureToy({ maxChars: 2000, maxImages: 0 })],
])('a search killed at every step boundary (%s environment)', (_kind, makeEnv) => {
  it('resumes each time to the uninterrupted state, and shows the meta agent what the uninterrupted search showed', async () => {
    // Uninterrupted; its live state at each boundary is kept.
    const a = run(makeEnv());
    const live = new Map<number, unknown>();
    const whole = await a.search(undefined, (e, s) => {
      if (e.type === 'step-done') live.set(e.step, stateOf(s, a.dir));
    });
    const all = journal(a.folder);
    for (const [step, state] of live)
      expect(state, `live state after step ${step}`).toEqual(stateOf(replay(upTo(all, step)), a.dir));

    // Killed before each step 1..budget, so that every session runs one step (step 0 in the first) and the next is
    // a resume.
    const b = run(makeEnv());
    for (let k = 1; k <= BUDGET; k++) {
      await expect(
        b.search((step) => {
          if (step === k) throw new Error(`killed before step ${k}`);
        }),
      ).rejects.toThrow(`killed before step ${k}`);
      expect(stateOf(replay(journal(b.folder)), b.dir), `state after the kill before step ${k}`).toEqual(
        live.get(k - 1),
      );
    }
    const resumed = await b.search();

    expect(stateOf(replay(journal(b.folder)), b.dir)).toEqual(stateOf(replay(all), a.dir));
    expect(resumed).toEqual(whole);
    expect([...b.meta.seen.keys()]).toEqual([...a.meta.seen.keys()]);
    expect(a.meta.seen.size).toBeGreaterThan(0);
    for (const [step, views] of a.meta.seen) expect(b.meta.seen.get(step), `the views of step ${step}`).toEqual(views);
  }, 120_000);
});
