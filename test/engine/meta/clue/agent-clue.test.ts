// The model meta agent with CluE, against the local server: the step's evidence is analysed per cluster the model
// formed (not per dataset label), the clustering is reported for the journal, and `metadata` keeps the labels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import { emptyPool } from '../../../../engine/meta/clue/pool.ts';
import type { Clustering, ModelParent } from '../../../../engine/meta/types.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(() => server.close());

const QUESTIONS: Record<string, string> = {
  q1: 'When did Caroline go to the support group?',
  q2: 'When did Melanie paint a sunrise?',
  q3: 'What does Melanie like to do with her kids?',
  q4: 'What activities does Caroline enjoy?',
  q5: 'When is Caroline moving?',
  q6: "What are Melanie's hobbies?",
};
const isWhen = (id: string) => ['q1', 'q2', 'q5'].includes(id);

function context(reported: Clustering[], step = 1): ModelParent {
  const tasks = Object.keys(QUESTIONS).map((taskId, i) =>
    scoredTask(taskId, i % 2 ? 'single-hop' : 'temporal', i < 3 ? 1 : 0),
  );
  return parentContext(tasks, {
    explain: (id) => ({ question: QUESTIONS[id], gold: [] }),
    envDescription: 'questions about two friends',
    step,
    onClusters: (c) => reported.push(c),
  });
}

function scripted() {
  server.onChat = (body) => {
    const user = String(body.messages.at(-1).content);
    if (user.includes('scenario summariser')) {
      const ids = [...user.matchAll(/taskId: (q\d)/g)].map((m) => m[1] as string);
      return {
        content: JSON.stringify({
          summaries: ids.map((id) => ({
            taskId: id,
            summary: isWhen(id) ? 'recall the date of a past event' : 'recall what a person likes to do',
          })),
        }),
      };
    }
    if (user.includes('cluster manager')) {
      const ids = [...user.matchAll(/^(q\d): /gm)].map((m) => m[1] as string);
      return {
        content: JSON.stringify({
          operations: [
            { op: 'create', id: 'dates', label: 'dates of past events', description: '' },
            { op: 'create', id: 'likes', label: 'preferences', description: '' },
          ],
          assign: Object.fromEntries(ids.map((id) => [id, isWhen(id) ? 'dates' : 'likes'])),
        }),
      };
    }
    const clusters = [...user.matchAll(/## Cluster "([^"]+)"/g)].map((m) => ({
      cluster: m[1] as string,
      weaknesses: ['w'],
      suggestions: [{ priority: 1, change: 'c' }],
    }));
    const analysis = JSON.stringify({
      relevance: [],
      weaknesses: ['w'],
      suggestions: [{ priority: 1, change: 'c' }],
      clusters,
      summary: 's',
      changes: [{ change: 'c' }],
    });
    if (body.response_format?.type === 'json_object') return { content: analysis };
    const program =
      "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'x', images: [] }; } });\n```";
    // A child's one call (the default) answers with the analysis, then the program.
    return { content: user.includes('Reply in two parts') ? `${analysis}\n${program}` : program };
  };
}

describe('model meta agent with CluE', () => {
  const models = () => resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });

  it('analyses the clusters the model formed and reports the clustering', async () => {
    scripted();
    const reported: Clustering[] = [];
    const proposal = await new ModelMetaAgent(models().meta as never).propose(context(reported));
    expect(proposal.feedback?.clusters.map((c) => [c.scenario, c.tasks])).toEqual([
      ['dates of past events', 3],
      ['preferences', 3],
    ]);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ source: 'model', assignment: { q1: 'dates', q3: 'likes' } });
    expect(Object.keys(reported[0]?.summaries ?? {})).toHaveLength(6);
    expect(reported[0]?.pool.clusters.map((c) => c.id)).toEqual(['dates', 'likes']);
  });

  it('clusters the same tasks once for steps in flight: the later step reuses the pool the earlier one made', async () => {
    scripted();
    const before = server.chatRequests().length;
    const reported: Clustering[] = [];
    const agent = new ModelMetaAgent(models().meta as never);
    // Both steps started from the same (empty) pool, as steps in flight do.
    const pool = emptyPool();
    const [a, b] = await Promise.all([
      agent.propose({ ...context(reported, 1), cluePool: pool }),
      agent.propose({ ...context(reported, 2), cluePool: pool }),
    ]);
    const prompts = server
      .chatRequests()
      .slice(before)
      .map((r) => String(r.messages.at(-1).content));
    expect(prompts.filter((p) => p.includes('scenario summariser'))).toHaveLength(1);
    expect(prompts.filter((p) => p.includes('cluster manager'))).toHaveLength(1);
    expect(reported.map((r) => r.source)).toEqual(['model', 'model']);
    expect(reported[1]?.notes).toEqual([
      'every task was already summarised and clustered: the pool stands, no model call',
    ]);
    expect(reported[1]?.assignment).toEqual(reported[0]?.assignment);
    for (const p of [a, b])
      expect(p.feedback?.clusters.map((c) => c.scenario)).toEqual(['dates of past events', 'preferences']);
  });

  it('keeps the metadata groups when asked to, with no clustering call', async () => {
    scripted();
    const before = server.chatRequests().length;
    const reported: Clustering[] = [];
    const proposal = await new ModelMetaAgent(models().meta as never, 'metadata').propose(context(reported));
    expect(proposal.feedback?.clusters.map((c) => c.scenario)).toEqual(['single-hop', 'temporal']);
    expect(reported).toEqual([]);
    const prompts = server
      .chatRequests()
      .slice(before)
      .map((b) => String(b.messages.at(-1).content));
    expect(prompts.some((p) => p.includes('scenario summariser') || p.includes('cluster manager'))).toBe(false);
  });
});
