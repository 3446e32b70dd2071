// The web environment over a real site: what programs see, training episodes collected once and stored with their
// screenshots, the oracle payload solving test tasks through the reference agent's replay, retries of
// infrastructure failures, and the reference agent's independence from the site generators.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';
import { resolveModels } from '../../../engine/llm/models.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import type { WebAgent } from '../../../envs/web/agents/agent.ts';
import { ReferenceAgent } from '../../../envs/web/agents/reference/agent.ts';
import { SOLVERS } from '../../../envs/web/agents/reference/solvers/index.ts';
import { WebEnvironment } from '../../../envs/web/environment.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';

const dir = mkdtempSync(join(tmpdir(), 'web-env-'));
const envs: WebEnvironment[] = [];
afterAll(async () => {
  await envs[0]?.close();
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

async function load(agent: WebAgent, notes: string[] = []) {
  const env = await WebEnvironment.load({ models: resolveModels({}, {}), images: new ImageStore(), sites: ['code'], instances: 5, agent, episodeStore: new EpisodeStore(join(dir, 'episodes')), onNote: (m) => notes.push(m) });
  envs.push(env);
  return env;
}

describe('web environment', { timeout: 300_000 }, () => {
  it('shows programs opaque ids and the task, never the answer or the procedure', async () => {
    const env = await load(counting());
    const [train] = await env.worlds('train');
    const [test] = await env.worlds('test');
    expect(train?.episodes).toHaveLength(5);
    expect(test?.tasks).toHaveLength(20);
    const seen = JSON.stringify([train?.tasks, test?.tasks]);
    for (const t of env.tasks) {
      expect(seen).not.toContain(t.template.id);
      expect(seen).not.toContain(t.spec.expected);
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
    const env = await load(agent);
    const [world] = await env.worlds('train');
    expect(agent.runs).toBe(0);
    const id = world?.episodes[0]?.steps.at(-1)?.observation?.images?.[0]?.id as string;
    expect(readdirSync(join(process.env.AUTOMEMO_CACHE_DIR ?? join('node_modules', '.cache', 'automemo'), 'web-screens'))).toContain(`${id}.jpg`);
  });

  it('solves test tasks from the oracle payload by replaying a sibling with its own arguments', async () => {
    const env = await load(counting());
    const tests = env.tasks.filter((t) => t.role === 'test').filter((_, i) => i % 4 === 0);
    let solved = 0;
    for (const t of tests) {
      const r = await env.run({ taskId: t.id, env: 'web', instruction: t.spec.instruction, initial: { text: '', images: [] }, meta: {} }, env.oraclePayload(t.id));
      if (r.success) solved++;
      expect(r.note).toMatch(/memory: replayed/);
    }
    expect(solved / tests.length).toBeGreaterThanOrEqual(0.8);
  });

  it('retries a training episode the machinery failed, and says so', async () => {
    const notes: string[] = [];
    const env = await WebEnvironment.load({ models: resolveModels({}, {}), images: new ImageStore(), sites: ['code'], instances: 5, agent: counting(1), episodeStore: new EpisodeStore(join(dir, 'fresh')), onNote: (m) => notes.push(m) });
    const [world] = await env.worlds('train');
    expect(world?.episodes).toHaveLength(5);
    expect(notes.some((n) => /the browser vanished; retrying/.test(n))).toBe(true);
  });

  it('refuses unknown sites by name', async () => {
    await expect(WebEnvironment.load({ models: resolveModels({}, {}), images: new ImageStore(), sites: ['casino'] })).rejects.toThrow('unknown web site casino; available: shop, travel, recipes, code, helpdesk');
  });

  it('lets the reference agent import nothing from the sites', () => {
    const folder = join(import.meta.dirname, '../../../envs/web/agents');
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    for (const f of walk(folder).filter((x) => x.endsWith('.ts'))) expect(readFileSync(f, 'utf8'), f).not.toMatch(/from ['"][^'"]*\/sites\//);
  });
});
