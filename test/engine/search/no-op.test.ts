// A child that would change nothing is not evaluated: the same program as a node of the tree, or a program whose
// payloads on every quick-examination task are exactly its parent's. It is journaled as a no-op, the summary, the
// replay and the viewer count it, and the agent, told it changed nothing, tries again within the step (3 tries).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../engine/meta/model/agent.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { resolveProgram } from '../../../memo-programs/registry.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { replay } from '../../../engine/search/replay.ts';
import { readRun } from '../../../viewer/run-model.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';
import { programAnalysisReply, withAnalysis } from '../../support/meta-replies.ts';
import { purposeOf } from '../../support/recorded-session.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

const work = mkdtempSync(join(tmpdir(), 'no-op-'));
let server: OpenAITestServer | undefined;
afterAll(async () => {
  await server?.close();
  await closeHostServices();
  rmSync(work, { recursive: true, force: true });
});

describe('children that would change nothing', () => {
  it('are journaled as no-ops, never evaluated, counted, and told to the model, which tries again within the step', async () => {
    server = await OpenAITestServer.start();
    const seed = readFileSync(resolveProgram('trajectory-retrieval').path, 'utf8');
    const changed = seed.replace('retrieve(', '/* a comment only */ retrieve(');
    const different =
      "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'nothing', images: [] }; } });\n";
    const programs = [changed, seed, different];
    server.onChat = (body) => {
      const purpose = purposeOf(body);
      if (purpose === 'analysis')
        return {
          content: JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] }),
        };
      if (purpose === 'synthesis') return { content: JSON.stringify({ summary: 's', changes: [{ change: 'c' }] }) };
      if (purpose === 'program-analysis') return { content: programAnalysisReply(body, 'Add a comment.', 'c') };
      return {
        content: withAnalysis(
          body,
          `\`\`\`ts\n// file: index.ts\n${programs.shift() ?? different}\`\`\``,
          'Add a comment.',
          'c',
        ),
      };
    };
    const { folder, opts } = createToyRun(join(work, 'run'), { budget: 1, policy: 'greedy', meta: 'model' });
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
    const s = await runSearch({
      env: new ToyEnvironment({ maxChars: 2000, maxImages: 0 }),
      services: offlineServices(),
      meta: new ModelMetaAgent(models.meta as never, 'metadata'),
      folder,
      options: opts,
      models,
      ledger: new CostLedger(),
    });

    const events = readJournal(folder.journalPath).events;
    const noops = events.filter((e) => e.type === 'no-op');
    expect(noops.map((e) => (e.type === 'no-op' ? [e.step, e.same, e.reason] : []))).toEqual([
      [1, 'seed-trajectory-retrieval', expect.stringContaining("exactly its parent's")],
      [1, 'seed-trajectory-retrieval', 'the same program as seed-trajectory-retrieval'],
    ]);
    // Neither was evaluated; the third try of the step was, as the step's child.
    const evaluated = events
      .filter((e) => e.type === 'evaluation' && e.split === 'train')
      .map((e) => (e.type === 'evaluation' ? e.node : ''));
    expect(evaluated).toEqual(['root', 'seed-trajectory-retrieval', 'n1']);
    expect(s).toMatchObject({ steps: 1, generations: 1, validGenerations: 1, noOps: 2, failedGenerations: 0 });
    expect(replay(events).tree.noops.map((x) => x.step)).toEqual([1, 1]);
    expect(readRun(folder.dir).noops.map((x) => x.step)).toEqual([1, 1]);
    // Each try kept its own files: the first, written at the child's name, moved aside before the child was written there.
    expect(noops.map((e) => (e.type === 'no-op' ? e.dir : ''))).toEqual(['programs/n1-noop', 'programs/n1-again1']);
    expect(readFileSync(join(folder.dir, 'programs', 'n1-noop', 'index.ts'), 'utf8')).toContain('a comment only');
    expect(readFileSync(join(folder.dir, 'programs', 'n1', 'index.ts'), 'utf8')).toContain("text: 'nothing'");
    const exams = events.filter((e) => e.type === 'quick-exam').map((e) => (e.type === 'quick-exam' ? e.dir : ''));
    expect(exams).toEqual(['programs/n1-noop', 'programs/n1-again1', 'programs/n1-again2']);
    // The model heard of the first no-op when it tried again.
    const generations = server
      .chatRequests()
      .filter((b) => purposeOf(b) === 'proposal')
      .map((b) => String(b.messages.at(-1).content));
    expect(generations[1]).toContain('- step 1: Add a comment. — failed before evaluation: changed nothing');
  }, 120_000);
});
