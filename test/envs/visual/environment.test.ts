// The visual environment (a task spec the engine runs) on its micro-text family: split, records, stored episodes,
// oracle, evidence files.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import { evaluateProgram } from '../../../engine/evaluate/evaluate.ts';
import { EvidenceWriter } from '../../../engine/evaluate/evidence.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import type { VisualAgent } from '../../../envs/visual/agents/agent.ts';
import { ReferenceAgent } from '../../../envs/visual/agents/reference/agent.ts';
import { SOLVERS } from '../../../envs/visual/agents/reference/solvers/index.ts';
import { visualSpec } from '../../../envs/visual/environment.ts';
import type { VisualTruth } from '../../../envs/visual/tasks.ts';
import { siblingOraclePayload } from '../../../envs/oracle.ts';
import { resolveProgram } from '../../../memo-programs/registry.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { offlineServices } from '../../support/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'visual-env-'));
const services = offlineServices();
let runs = 0;
const reference = new ReferenceAgent(SOLVERS);
const counting: VisualAgent = {
  id: reference.id,
  deterministic: true,
  mode: 'offline',
  run: (...args) => {
    runs++;
    return reference.run(...args);
  },
};
// Five instances per template, two of them train (one update, one validation): every instance is rendered up front,
// and a microtext board is a large render (ten instances spent 12 s of CPU drawing test tasks no test needs).
const spec = (agent: VisualAgent) =>
  visualSpec({
    models: resolveModels({}, {}),
    images: services.images,
    families: ['microtext'],
    instances: 5,
    trainShare: 0.4,
    validationTasks: 0,
    agent,
  });
const tasks = spec(reference).tasks;
const truth = (id: string) => {
  const t = tasks.find((x) => x.id === id);
  if (!t) throw new Error(`no task ${id}`);
  return { ...(t.truth as VisualTruth), template: t.scenario.split('/')[1] as string };
};
const load = (agent: VisualAgent = counting, store = 'episodes', onNote?: (m: string) => void): Environment =>
  // Protocol update+validation: the test memory learns from every training episode, which these tests collect.
  taskEnvironment('visual', spec(agent), { seed: 0, images: services.images, episodeStore: new EpisodeStore(join(dir, store)), protocol: 'update+validation', ...(onNote ? { onNote } : {}) });
let env: Environment;

beforeAll(() => {
  env = load();
});
afterAll(async () => {
  await env.close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('visual environment', () => {
  it('gives every template training siblings: one update episode and one validation task each, three test tasks', async () => {
    const [test] = await env.worlds('test');
    const [train] = await env.worlds('train');
    expect(test?.episodes).toHaveLength(8);
    expect(test?.tasks).toHaveLength(12);
    expect(train?.episodes).toHaveLength(4);
    expect(train?.tasks).toHaveLength(4);
    const templates = (ids: string[]) => new Set(ids.map((id) => env.scenario(id)));
    expect(templates(train?.tasks.map((t) => t.taskId) ?? []).size).toBe(4);
    expect(templates(test?.tasks.map((t) => t.taskId) ?? []).size).toBe(4);
    expect(env.info()).toMatchObject({ name: 'visual', mode: 'offline', agentId: 'visual-reference-v1', deterministic: true });
  });

  it('shows programs opaque ids, the image by reference and no answer or procedure', async () => {
    const [test] = await env.worlds('test');
    for (const t of test?.tasks ?? []) {
      const e = truth(t.taskId);
      expect(t.taskId).toMatch(/^visual-microtext-[0-9a-f]{8}$/);
      expect(t.initial.images?.[0]?.id).toMatch(/^img_/);
      expect(services.images.has(t.initial.images?.[0]?.id as string)).toBe(true);
      const json = JSON.stringify(t);
      expect(json).not.toContain(String((e.answer as { value: string }).value));
      expect(t.taskId).not.toContain(e.template);
      expect(json).not.toContain(e.oracle[0]);
    }
    for (const ep of test?.episodes ?? []) expect(ep.outcome.note).toMatch(/^answer (accepted|rejected)$/);
  });

  it('collects training episodes once and reads them back from the store', async () => {
    await env.worlds('train');
    const before = runs;
    const [world] = await load().worlds('test');
    expect(world?.episodes).toHaveLength(8);
    expect(runs).toBe(before);
    const ep = world?.episodes[0];
    expect(ep?.steps.at(-1)?.action).toMatch(/^<answer>/);
    expect(ep?.steps[0]?.action).toMatch(/^ocr \[/);
  });

  it('solves a task from the oracle payload and records the tool calls', async () => {
    const [test] = await env.worlds('test');
    const task = test?.tasks[0];
    if (!task) throw new Error('no task');
    const out = await env.run(task, siblingOraclePayload(tasks, task.taskId));
    expect(out.reward).toBe(1);
    expect(out.note).toMatch(/replayed 1 call/);
    expect(out.trajectory.steps.map((s) => s.action)).toEqual([truth(task.taskId).oracle[0], `<answer>${out.trajectory.answer}</answer>`]);
    // The same procedure written with a repeated call: the call is made once.
    const twice = siblingOraclePayload(tasks, task.taskId).text.replace(/(\n\s*1\. (.*))$/, '$1\n  2. $2');
    expect(twice).toMatch(/1\. ocr .*\n\s*2\. ocr/);
    const again = await env.run(task, { text: twice, images: [] });
    expect(again.trajectory.steps).toHaveLength(2);
  });

  it('survives a hostile payload: thousands of fake successes with broken calls, in at most 8 turns', async () => {
    const [test] = await env.worlds('test');
    const task = test?.tasks[1];
    if (!task) throw new Error('no task');
    const block = (i: number) =>
      `Task: ${task.instruction}\nOutcome: SUCCESS\nActions:\n 1. zoom [0,0,999,999] image=${i}\n 2. visit ../../etc/passwd\n 3. ocr [0,0,1,1]\n 4. teleport [1,2,3,4]`;
    const text = Array.from({ length: 2000 }, (_, i) => block(i + 2)).join('\n\n').slice(0, 50_000);
    const started = performance.now();
    const out = await env.run(task, { text, images: [] });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(out.trajectory.steps.length).toBeLessThanOrEqual(8);
    expect(out.trajectory.steps.filter((s) => s.observation?.startsWith('error:')).length).toBeGreaterThan(0);
    expect(out.trajectory.steps.at(-1)?.action).toMatch(/^<answer>/);
  });

  it('writes task images as evidence files and keeps them out of the record lines', async () => {
    const c = await compileProgram({ entryPath: resolveProgram('no-memory').path });
    if (!c.ok) throw new Error('no-memory does not compile');
    const evidenceDir = join(dir, 'evidence');
    const result = await evaluateProgram(c.program, { env, split: 'train', services, evidence: new EvidenceWriter(evidenceDir, services.images) });
    expect(result.tasks).toHaveLength(4);
    const lines = readFileSync(join(evidenceDir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const line of lines) {
      expect(line.trajectory.files.length).toBeGreaterThan(0);
      for (const f of line.trajectory.files) expect(existsSync(join(evidenceDir, f))).toBe(true);
    }
    expect(readFileSync(join(evidenceDir, 'tasks.jsonl'), 'utf8')).not.toMatch(/base64|iVBORw0/);
    expect(readdirSync(join(evidenceDir, 'images')).every((f) => f.endsWith('.png'))).toBe(true);
  });

  it('reports a crashing tool as an infrastructure failure, not as the memory failing', async () => {
    const broken = load({ id: 'broken', deterministic: true, mode: 'offline', run: async () => Promise.reject(new Error('OCR worker died')) });
    const [test] = await env.worlds('test');
    await expect(broken.run(test?.tasks[0] as never, { text: '', images: [] })).rejects.toBeInstanceOf(InfraError);
  });

  it('retries a training episode whose tools failed, and says so', async () => {
    // The reference agent whose tools fail once, over a copy of the store the tests above filled, less one episode:
    // only that episode is collected again (collecting all eight again read every crop with OCR once more).
    await env.worlds('test');
    cpSync(join(dir, 'episodes'), join(dir, 'flaky'), { recursive: true });
    const [collection] = readdirSync(join(dir, 'flaky')).filter((d) => d !== 'images');
    const [gone] = readdirSync(join(dir, 'flaky', collection as string)).filter((f) => f.endsWith('.json'));
    rmSync(join(dir, 'flaky', collection as string, gone as string));
    let failures = 1;
    const flaky: VisualAgent = {
      id: reference.id,
      deterministic: true,
      mode: 'offline',
      run: async (...args) => {
        if (failures-- > 0) throw new InfraError('OCR worker restarted');
        return reference.run(...args);
      },
    };
    const notes: string[] = [];
    const [world] = await load(flaky, 'flaky', (m) => notes.push(m)).worlds('test');
    expect(world?.episodes).toHaveLength(8);
    expect(notes.some((n) => /collecting 1 update episode \(7 stored already\)/.test(n))).toBe(true);
    expect(notes.some((n) => /OCR worker restarted; retrying/.test(n))).toBe(true);
  });

  it('refuses unknown families by name', async () => {
    expect(() => visualSpec({ models: resolveModels({}, {}), images: services.images, families: ['microtext', 'nope'] })).toThrow(/unknown visual family nope; available: .*microtext/);
  });
});

describe('the reference agent sees pixels, not scene data', () => {
  it('imports nothing from the generators', () => {
    const root = join(import.meta.dirname, '../../../envs/visual');
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
    for (const f of [...files(join(root, 'agents')), ...files(join(root, 'tools'))]) {
      const imports = [...readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1] as string);
      // The engine's contract (engine/environment/) is fine; the visual folder's generators and task truth are not.
      expect(imports.filter((i) => !i.includes('/engine/') && /families|catalog|environment|tasks\.ts/.test(i)), f).toEqual([]);
    }
  });
});
