// Update episodes collected once by the engine (through a task environment over a small procedural spec, a real
// image store and a temporary episode store): read back without running the agent, images restored into a fresh
// store, infrastructure failures retried then named, what finished kept, a tampered store collected again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EpisodeRecorder } from '../../../memo-programs/contract.ts';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';
import { assignRoles } from '../../../engine/environment/roles.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import type { TaskEnvironmentSpec } from '../../../engine/environment/task-spec.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import {
  type AgentHooks,
  type ArithmeticTruth,
  arithmeticSpec,
  arithmeticTasks,
  hooks,
  png,
} from '../../support/arithmetic-spec.ts';

const root = mkdtempSync(join(tmpdir(), 'collect-episodes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tasks = await arithmeticTasks();
const roles = assignRoles(tasks, 0);
/** Ids of the tasks whose episodes are collected (update and validation), in task order. */
const trainIds = tasks.filter((_, i) => roles[i] !== 'test').map((t) => t.id);

interface Opened {
  h: AgentHooks;
  notes: string[];
  images: ImageStore;
  env: ReturnType<typeof taskEnvironment>;
}

async function open(
  store: string,
  setup: (h: AgentHooks) => void = () => {},
  overrides: Partial<TaskEnvironmentSpec<ArithmeticTruth>> = {},
): Promise<Opened> {
  const h = hooks();
  setup(h);
  const notes: string[] = [];
  const images = new ImageStore();
  const env = taskEnvironment('arith', await arithmeticSpec(h, overrides), {
    seed: 0,
    images,
    episodeStore: new EpisodeStore(join(root, store)),
    onNote: (m) => notes.push(m),
    protocol: 'update+validation',
  }); // the test split collects every training episode
  return { h, notes, images, env };
}

const runs = (h: AgentHooks) => [...h.runs.values()].reduce((a, b) => a + b, 0);
const episodesOf = async (o: Opened) => (await o.env.worlds('test'))[0]?.episodes as EpisodeRecorder[];
const collectionDir = (store: string) => {
  const dirs = readdirSync(join(root, store)).filter((d) => d !== 'images');
  expect(dirs).toHaveLength(1);
  return join(root, store, dirs[0] as string);
};

describe('collecting update episodes', () => {
  it('collects each update episode once; a later environment reads them back without running the agent', async () => {
    const first = await open('once');
    const collected = await episodesOf(first);
    expect(collected.map((e) => e.taskId)).toEqual(trainIds);
    expect(runs(first.h)).toBe(trainIds.length);
    expect(
      first.notes.some((n) => new RegExp(`collecting ${trainIds.length} update episodes with arith-agent-v1`).test(n)),
    ).toBe(true);

    const again = await open('once');
    const read = await episodesOf(again);
    expect(runs(again.h)).toBe(0);
    expect(again.notes).toEqual([]);
    expect(read).toEqual(collected);
    // What an update episode holds: the task as programs see it, the steps, the answer, the verdict's feedback.
    const ep = read[0] as EpisodeRecorder;
    expect(ep).toMatchObject({
      env: 'arith',
      domain: ep.meta.op,
      initial: { text: expect.stringMatching(/^a worksheet/) },
      answer: expect.any(String),
    });
    expect(ep.outcome).toEqual({ reward: 1, success: true, note: 'task accepted' });
    expect(JSON.stringify(read)).not.toMatch(/expected \d/);
  });

  it('puts every image an episode shows back into a fresh image store', async () => {
    await episodesOf(await open('images'));
    const fresh = await open('images');
    const read = await episodesOf(fresh);
    expect(runs(fresh.h)).toBe(0);
    for (const ep of read) {
      const look = ep.steps[0]?.observation?.images?.[0];
      expect(look?.caption).toBe('what the agent saw');
      expect(Buffer.from(fresh.images.get(look?.id as string).bytes).equals(await png(`look ${ep.taskId}`))).toBe(true);
      for (const ref of ep.initial.images ?? []) expect(fresh.images.has(ref.id)).toBe(true);
    }
    expect(read.some((ep) => (ep.initial.images ?? []).length > 0)).toBe(true);
  });

  it('retries an infrastructure failure with a note', async () => {
    const flaky = trainIds[2] as string;
    const o = await open('retry', (h) => h.failures.set(flaky, 2));
    expect(await episodesOf(o)).toHaveLength(trainIds.length);
    expect(o.h.runs.get(flaky)).toBe(3);
    expect(o.notes.filter((n) => n.includes(`calculator offline for ${flaky}; retrying`))).toHaveLength(2);
  });

  it('stops naming the task after the last attempt, keeps what finished, and later collects only the rest', async () => {
    const broken = trainIds[1] as string;
    const o = await open('stop', (h) => h.failures.set(broken, Infinity));
    await expect(o.env.worlds('test')).rejects.toThrow(
      `collecting the update episode of task "${broken}" failed after 3 attempts: calculator offline for ${broken}`,
    );
    const finished = [...o.h.runs.keys()].filter((id) => id !== broken);
    expect(finished.length).toBeGreaterThan(0);
    const healed = await open('stop');
    expect(await episodesOf(healed)).toHaveLength(trainIds.length);
    expect(healed.h.runs.get(broken)).toBe(1);
    for (const id of finished) expect(healed.h.runs.get(id)).toBeUndefined();
  });

  it('does not retry an agent that returns an unusable run, and names the task', async () => {
    const o = await open('unusable', () => {}, {
      agent: { id: 'sloppy', run: async (task) => ({ answer: task.id }) as never },
    });
    await expect(o.env.worlds('train')).rejects.toThrow(
      /after 1 attempt: environment "arith": agent sloppy returned an unusable run for task "[a-z]+-\d": steps/,
    );
  });

  it('collects again, with a note, what a tampered store holds instead of an episode', async () => {
    await episodesOf(await open('tampered'));
    const dir = collectionDir('tampered');
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(trainIds.length);
    const [torn, swapped, wrong, other] = files.map((f) => join(dir, f)) as [string, string, string, string];
    writeFileSync(torn, '{"torn');
    writeFileSync(swapped, readFileSync(other));
    const bad = JSON.parse(readFileSync(wrong, 'utf8'));
    bad.episode.outcome.reward = 7;
    writeFileSync(wrong, JSON.stringify(bad));
    const o = await open('tampered');
    expect(await episodesOf(o)).toHaveLength(trainIds.length);
    expect(runs(o.h)).toBe(3);
    expect(o.notes.filter((n) => /collecting it again$/.test(n))).toHaveLength(3);
    expect(o.notes.join('\n')).toMatch(/is not JSON/);
    expect(o.notes.join('\n')).toMatch(/belongs to another task/);
    expect(o.notes.join('\n')).toMatch(/is not an episode \(outcome\.reward/);
  });

  it('drops an image whose file is missing or not what its name says, with a note', async () => {
    const collected = await episodesOf(await open('lost-images'));
    const lost = collected[0]?.steps[0]?.observation?.images?.[0]?.id as string;
    const forged = collected[1]?.steps[0]?.observation?.images?.[0]?.id as string;
    rmSync(join(root, 'lost-images', 'images', lost));
    writeFileSync(join(root, 'lost-images', 'images', forged), await png('something else'));
    const o = await open('lost-images');
    const read = await episodesOf(o);
    expect(runs(o.h)).toBe(0);
    expect(read[0]?.steps[0]?.observation?.images).toEqual([]);
    expect(read[1]?.steps[0]?.observation?.images).toEqual([]);
    expect(read[2]?.steps[0]?.observation?.images).toHaveLength(1);
    expect(o.notes.join('\n')).toMatch(new RegExp(`${lost} is missing; dropped from the episode`));
    expect(o.notes.join('\n')).toMatch(new RegExp(`${forged} does not hold the image its name says`));
  });

  it("runs at most the spec's number of episodes at once", async () => {
    const o = await open('concurrency', () => {}, { collect: { concurrency: 3 } });
    await episodesOf(o);
    expect(o.h.maxInFlight).toBeLessThanOrEqual(3);
    expect(o.h.maxInFlight).toBeGreaterThan(1);
  });
});
