// The third recorded session (../shared/data/meta-model-session-3/: `search({ env: 'locomo', budget: 6, meta:
// 'model', parallel: 2, seed: 7, workers: 1 })` with CluE clusters, one analysis per program) replayed through
// today's meta agent: each request gets the real model's reply for its purpose and program. The recorded programs
// are whole files; `edits: true` serves each as the search/replace edits that give the same files (recorded-edits.ts),
// what the model would write in today's format, so its completion tokens can be counted. A child's one call (the
// agent's default, `analysis: 'child'`) is served the recorded analysis of its program followed by the recorded
// program written from it; `analysis: 'program'` replays the recorded two calls as they were made.
import { join } from 'node:path';
import { search, type SearchResult } from '../../api/index.ts';
import type { JournalEvent } from '../../engine/search/journal-events.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { readJournal } from '../../run-store/journal.ts';
import type { OpenAITestServer } from './openai-server.ts';
import { recordedEdits } from './recorded-edits.ts';
import { keyedReplay, recordedCalls, type Served, session3Dir } from './recorded-session.ts';

export interface Replayed {
  result: SearchResult;
  events: JournalEvent[];
  served: Served[];
  /** The chat requests the server received, in order. */
  requests: any[];
}

/**
 * The session replayed. The real model took minutes where the local server takes none, so its steps finished in an
 * order instant replies would not keep: three programs are held back until a step is done, and the policy then
 * takes the real run's actions — generate from seed-pipeline (n1) and seed-omni-simplemem (n2, whose program came
 * back after n1 was in the tree), from seed-pipeline again (n3, after n2 was) and seed-bm25 (n4, after n3 was),
 * then from n1 (n5) and n3 (n6), each of the last two repaired once.
 */
export async function replayThirdSession(
  server: OpenAITestServer,
  o: { out: string; edits: boolean; analysis?: 'child' | 'program'; budget?: number },
): Promise<Replayed> {
  const served: Served[] = [];
  const done = new Set<number>();
  const waiting: (() => void)[] = [];
  const until = (step: number) =>
    new Promise<void>((resolve) => {
      const check = () => (done.has(step) ? resolve() : waiting.push(check));
      check();
    });
  let pipelinePrograms = 0;
  server.onChat = keyedReplay(
    recordedCalls(session3Dir),
    served,
    async (purpose, node) => {
      if (purpose !== 'generation' && purpose !== 'proposal') return;
      if (node === 'seed-omni-simplemem') await until(1);
      if (node === 'seed-pipeline' && pipelinePrograms++ === 1) await until(2);
      if (node === 'seed-bm25') await until(3);
    },
    o.edits ? recordedEdits() : undefined,
  );
  const onEvent = (e: JournalEvent) => {
    if (e.type !== 'step-done') return;
    done.add(e.step);
    for (const w of waiting.splice(0)) w();
  };
  const before = server.chatRequests().length;
  const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'recorded-frontier-model' });
  const result = await search({
    env: 'locomo',
    out: o.out,
    models,
    meta: 'model',
    ...(o.analysis ? { analysis: o.analysis } : {}),
    budget: o.budget ?? 6,
    parallel: 2,
    seed: 7,
    workers: 1,
    onEvent,
  });
  return {
    result,
    events: readJournal(join(o.out, 'journal.jsonl')).events,
    served,
    requests: server.chatRequests().slice(before),
  };
}
