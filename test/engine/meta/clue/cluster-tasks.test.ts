// CluE's clustering against the local OpenAI-compatible server: summaries once per task, the manager's pool
// applied, no call for tasks the pool has already clustered, and the metadata groups (with the reason) when the
// evidence is small or a reply cannot be used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { clusterTasks, type AskJson, type ClueTask } from '../../../../engine/meta/clue/cluster-tasks.ts';
import { emptyPool } from '../../../../engine/meta/clue/pool.ts';
import { clientFor } from '../../../../foundation/llm/client.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(() => server.close());

/** The real SDK against the local server (the scripted handler tells the two calls apart by their prompts). */
const ask: AskJson = async <T>(_purpose: string, user: string, schema: z.ZodType<T>): Promise<T> => {
  const res = await clientFor({ role: 'meta', model: 'test-model', baseURL: server.baseURL }).chat.completions.create({
    model: 'test-model',
    messages: [{ role: 'user', content: user }],
  });
  return schema.parse(JSON.parse(res.choices[0]?.message?.content ?? ''));
};

const QUESTIONS: [string, string][] = [
  ['q1', 'When did Caroline go to the LGBTQ support group?'],
  ['q2', 'When did Melanie paint a sunrise?'],
  ['q3', 'What does Melanie like to do with her kids?'],
  ['q4', 'What activities does Caroline enjoy?'],
  ['q5', 'When is Caroline moving?'],
  ['q6', "What are Melanie's hobbies?"],
];
const tasks: ClueTask[] = QUESTIONS.map(([taskId, text], i) => ({
  taskId,
  text,
  scenario: i % 2 ? 'single-hop' : 'temporal',
}));
const isWhen = (id: string) => ['q1', 'q2', 'q5', 'q7'].includes(id);

function scriptedModel() {
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
    const ids = [...user.matchAll(/^(q\d): /gm)].map((m) => m[1] as string);
    return {
      content: JSON.stringify({
        operations: user.includes('(empty: this is the first step)')
          ? [
              { op: 'create', id: 'dates', label: 'dates of past events', description: 'when something happened' },
              { op: 'create', id: 'likes', label: 'preferences and activities', description: 'what someone enjoys' },
            ]
          : [{ op: 'relabel', cluster: 'likes', label: 'hobbies' }],
        assign: Object.fromEntries(ids.map((id) => [id, isWhen(id) ? 'dates' : 'likes'])),
      }),
    };
  };
}

describe('CluE clustering', () => {
  it('groups by the scenario the model read, not the dataset label; a later step reuses summaries and updates the pool', async () => {
    scriptedModel();
    const before = server.chatRequests().length;
    const first = await clusterTasks(emptyPool(), tasks, ask);
    expect(first.source).toBe('model');
    expect(first.groupOf).toEqual({
      q1: 'dates of past events',
      q2: 'dates of past events',
      q5: 'dates of past events',
      q3: 'preferences and activities',
      q4: 'preferences and activities',
      q6: 'preferences and activities',
    });
    expect(server.chatRequests().length - before).toBe(2);
    // The same tasks again (another step's copy of the sample): nothing to ask, the pool stands.
    const again = await clusterTasks(first.pool, tasks, ask);
    expect(server.chatRequests().length - before).toBe(2);
    expect(again).toMatchObject({
      source: 'model',
      groupOf: first.groupOf,
      notes: ['every task was already summarised and clustered: the pool stands, no model call'],
    });
    // A sample with a new task: only it is summarised; the manager sees the pool and relabels.
    const more = [...tasks, { taskId: 'q7', text: 'When did Melanie go camping?', scenario: 'temporal' }];
    const second = await clusterTasks(first.pool, more, ask);
    const calls = server.chatRequests().slice(before + 2);
    expect(calls).toHaveLength(2);
    expect(String(calls[0].messages.at(-1).content)).toContain('Tasks (1), one per block:\ntaskId: q7');
    expect(String(calls[1].messages.at(-1).content)).toContain('- likes [3]: preferences and activities');
    expect(second.groupOf.q3).toBe('hobbies');
    expect(second.pool.clusters.map((c) => c.id)).toEqual(['dates', 'likes']);
  });

  it('keeps the metadata groups, saying why, when the evidence is too small or the model fails', async () => {
    const small = await clusterTasks(emptyPool(), tasks.slice(0, 3), ask);
    expect(small).toMatchObject({ source: 'metadata', groupOf: { q1: 'temporal', q2: 'single-hop', q3: 'temporal' } });
    expect(small.notes[0]).toContain('too few to cluster');
    server.onChat = () => ({ content: 'I would rather not cluster.' });
    const failed = await clusterTasks(emptyPool(), tasks, ask);
    expect(failed.source).toBe('metadata');
    expect(failed.notes[0]).toMatch(/^clustering failed, metadata groups kept: /);
    expect(failed.pool).toEqual(emptyPool());
  });
});
