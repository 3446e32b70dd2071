// The web environment (a task spec with a self-scoring agent, run by the engine) over a real site: what programs see,
// training episodes collected once and stored with their screenshots, the oracle payload solving test tasks through
// the reference agent's replay, retries of infrastructure failures, and the reference agent's independence from the
// site generators.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { type Environment, InfraError } from '../../../engine/environment/contract.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import type { WebAgent } from '../../../envs/web/agents/agent.ts';
import { ReferenceAgent } from '../../../envs/web/agents/reference/agent.ts';
import { SOLVERS } from '../../../envs/web/agents/reference/solvers/index.ts';
import { siblingOraclePayload } from '../../../envs/oracle.ts';
import { webSpec } from '../../../envs/web/environment.ts';
import type { WebTruth } from '../../../envs/web/tasks.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';

const dir = mkdtempSync(join(tmpdir(), 'web-env-'));
const envs: Environment[] = [];
afterAll(async () => {
  await envs[0]?.close?.();
  rmSync(dir, { recursive: true, force: true });
});

/** The reference agent, counting its runs and failing the first `failures` with an infrastructure error. */
function counting(failures = 0): WebAgent & { runs: number } {
  const inner = new ReferenceAgent(SOLVERS);
  const agent = {
    id: inner.id,
    deterministic: true,
    mode: 'offline' as const,
    runs: 0,
    async run(...args: Parameters<WebAgent['run']>) {
      agent.runs++;
      if (agent.runs <= failures) throw new InfraError('the browser vanished');
      return inner.run(...args);
    },
  };
  return agent;
}

// Two of five instances train: one update, one validation task per template.
const spec = (agent: WebAgent) => webSpec({ models: resolveModels({}, {}), sites: ['code'], instances: 5, trainShare: 0.4, validationTasks: 0, agent });
const tasks = spec(counting()).tasks;

function load(agent: WebAgent, notes: string[] = [], store = 'episodes', images = new ImageStore()) {
  // Protocol update+validation: the test memory learns from every training episode, which these tests collect.
  const env = taskEnvironment('web', spec(agent), { seed: 0, images, episodeStore: new EpisodeStore(join(dir, store)), onNote: (m) => notes.push(m), protocol: 'update+validation' });
  envs.push(env);
  return env;
}

describe('web environment', { timeout: 300_000 }, () => {
  it('shows programs opaque ids and the task, never the answer or the procedure', async () => {
    const env = load(counting());
    const [train] = await env.worlds('train');
    const [test] = await env.worlds('test');
    expect(train?.episodes).toHaveLength(5);
    expect(train?.tasks).toHaveLength(5);
    expect(test?.episodes).toHaveLength(10);
    expect(test?.tasks).toHaveLength(15);
    const seen = JSON.stringify([train?.tasks, test?.tasks]);
    for (const t of tasks) {
      expect(seen).not.toContain(t.scenario.split('/')[1]);
      expect(seen).not.toContain((t.truth as WebTruth).expected);
      if (t.role === 'test') expect(seen).toContain(t.id);
    }
    for (const t of test?.tasks ?? []) expect(t.taskId).toMatch(/^web-code-[0-9a-f]{8}$/);
    // Episodes carry role-and-name actions and the final page's screenshot.
    const ep = train?.episodes[0];
    expect(ep?.steps.at(-1)?.action).toMatch(/^ANSWER; /);
    expect(ep?.steps.some((s) => / (link|button|generic|textbox|combobox) "/.test(s.action))).toBe(true);
    expect(ep?.steps.at(-1)?.observation?.images?.[0]?.mime).toBe('image/jpeg');
  });

  it('collects training episodes once and reads them back from the store with their screenshots', async () => {
    const agent = counting();
    const images = new ImageStore();
    const env = load(agent, [], 'episodes', images);
    const [world] = await env.worlds('train');
    expect(agent.runs).toBe(0);
    const id = world?.episodes[0]?.steps.at(-1)?.observation?.images?.[0]?.id as string;
    expect(readdirSync(join(dir, 'episodes', 'images'))).toContain(id);
    expect(images.get(id).ref.mime).toBe('image/jpeg');
  });

  it('solves test tasks from the oracle payload by replaying a sibling with its own arguments', async () => {
    const env = load(counting());
    const tests = tasks.filter((t) => t.role === 'test').filter((_, i) => i % 3 === 0);
    let solved = 0;
    for (const t of tests) {
      const r = await env.run({ taskId: t.id, env: 'web', instruction: t.instruction, initial: { text: '', images: [] }, meta: {} }, siblingOraclePayload(tasks, t.id));
      if (r.success) solved++;
      expect(r.note).toMatch(/memory: replayed/);
    }
    expect(solved / tests.length).toBeGreaterThanOrEqual(0.8);
  });

  it('retries a training episode the machinery failed, and says so', async () => {
    const notes: string[] = [];
    const env = load(counting(1), notes, 'fresh');
    const [world] = await env.worlds('train');
    expect(world?.episodes).toHaveLength(5);
    expect(notes.some((n) => /the browser vanished; retrying/.test(n))).toBe(true);
    expect(notes.some((n) => /collecting 5 update episodes with web-reference/.test(n))).toBe(true);
  });

  it('refuses unknown sites by name', async () => {
    expect(() => webSpec({ models: resolveModels({}, {}), sites: ['casino'] })).toThrow('unknown web site casino; available: shop, travel, recipes, code, helpdesk');
  });

  it('lets the reference agent import nothing from the sites', () => {
    const folder = join(import.meta.dirname, '../../../envs/web/agents');
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    for (const f of walk(folder).filter((x) => x.endsWith('.ts'))) expect(readFileSync(f, 'utf8'), f).not.toMatch(/from ['"][^'"]*\/sites\//);
  });
});
