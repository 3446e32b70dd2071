// The second recorded session (../shared/data/meta-model-session-2/: `search({ env: 'locomo', budget: 6, meta:
// 'model', parallel: 2, seed: 7 })` with CluE clusters) replayed through today's meta agent: each request gets the real
// model's reply for its purpose, program and cluster. The real model took far longer than an evaluation, so its
// steps finished in an order instant replies would not keep; two replies are held back until a step is done, and
// the policy then takes the real run's actions: generate from seed-pipeline (n1), re-evaluate it, generate from
// seed-omni-simplemem (n3), re-evaluate n1 twice, generate from seed-pipeline again (n6).
import { join } from 'node:path';
import { search, type SearchResult } from '../../api/index.ts';
import { resolveModels } from '../../engine/llm/models.ts';
import { type JournalEvent, readJournal } from '../../search-trees/journal.ts';
import type { OpenAITestServer } from './openai-server.ts';
import { keyedReplay, recordedCalls, type Served, session2Dir } from './recorded-session.ts';

export interface Replayed {
  result: SearchResult;
  events: JournalEvent[];
  served: Served[];
  /** The chat requests the server received, in order. */
  requests: any[];
}

export async function replaySecondSession(server: OpenAITestServer, o: { out: string; analysis: 'cluster' | 'program'; budget: number }): Promise<Replayed> {
  const served: Served[] = [];
  const done = new Set<number>();
  const waiting: (() => void)[] = [];
  const until = (step: number) =>
    new Promise<void>((resolve) => {
      const check = () => (done.has(step) ? resolve() : waiting.push(check));
      check();
    });
  let pipelinePrograms = 0;
  // Step 2 (a re-evaluation) was done before step 1's program came back; step 1's child was evaluated before
  // step 3's program came back.
  server.onChat = keyedReplay(recordedCalls(session2Dir), served, async (purpose, node) => {
    if (purpose !== 'generation') return;
    if (node === 'seed-pipeline' && pipelinePrograms++ === 0) await until(2);
    if (node === 'seed-omni-simplemem') await until(1);
  });
  const before = server.chatRequests().length;
  const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'recorded-frontier-model' });
  const onEvent = (e: JournalEvent) => {
    if (e.type !== 'step-done') return;
    done.add(e.step);
    for (const w of waiting.splice(0)) w();
  };
  const result = await search({ env: 'locomo', out: o.out, models, meta: 'model', analysis: o.analysis, budget: o.budget, parallel: 2, seed: 7, onEvent });
  return { result, events: readJournal(join(o.out, 'journal.jsonl')).events, served, requests: server.chatRequests().slice(before) };
}

/** Prompt and completion tokens of the calls made (reused replies made none). */
export function tokensOf(events: JournalEvent[]): number {
  return events.reduce((n, e) => (e.type === 'meta-call' && !e.reused ? n + e.promptTokens + e.completionTokens : n), 0);
}
