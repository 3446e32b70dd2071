// An environment composed of several (--env a,b,c): the spec split into its sources, tasks that keep their source
// (ids and scenarios source/…, worlds never mixed), runs routed to the source's own agent and checker, and a score
// that is the mean of the sources' scores whatever their number of tasks.
import { describe, expect, it } from 'vitest';
import { composeEnvironments, splitComposite } from '../../../engine/environment/compose.ts';
import { bySourceScores, weightedScore } from '../../../engine/evaluate/stats.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';

const registered = (n: string) => ['locomo', 'visual', 'web', 'data'].includes(n);

describe('--env a,b,c', () => {
  it('splits into sources, keeping an environment\'s own comma-separated options together', () => {
    expect(splitComposite('locomo,data:./qa.jsonl,./my-env.ts', registered)).toEqual(['locomo', 'data:./qa.jsonl', './my-env.ts']);
    expect(splitComposite('visual:charts,mazes', registered)).toEqual(['visual:charts,mazes']);
    expect(splitComposite('visual:charts,mazes,locomo', registered)).toEqual(['visual:charts,mazes', 'locomo']);
    expect(splitComposite('web:shop,travel,/abs/env.ts:hard', registered)).toEqual(['web:shop,travel', '/abs/env.ts:hard']);
    expect(splitComposite('locomo', registered)).toEqual(['locomo']);
    expect(splitComposite('my-bench,locomo', registered)).toEqual(['my-bench', 'locomo']);
  });

  it('keeps each task\'s source and its worlds apart, and runs a task with its own source', async () => {
    const a = new ToyEnvironment();
    const b = new ToyEnvironment({ maxChars: 100, maxImages: 0 });
    const env = composeEnvironments([
      { label: 'doors', env: a },
      { label: 'small', env: b },
    ]);
    const worlds = await env.worlds('test');
    expect(worlds.map((w) => w.id)).toEqual(['doors/w1', 'doors/w2', 'small/w1', 'small/w2']);
    for (const w of worlds) {
      const source = w.id.split('/')[0] as string;
      expect(w.tasks.every((t) => t.taskId.startsWith(`${source}/`))).toBe(true);
      expect(w.episodes.every((e) => e.taskId.startsWith(`${source}/`))).toBe(true);
    }
    const task = worlds[2]?.tasks[0];
    expect(env.scenario(task?.taskId as string)).toBe('small/w1');
    expect(env.source?.(task?.taskId as string)).toBe('small');
    const outcome = await env.run(task!, { text: 'The code for door-1 is basil', images: [] });
    expect(outcome.reward).toBe(1);
    expect([a.runs, b.runs]).toEqual([0, 1]);
    // One memory serves both: the strictest budget; the reward says how the sources are weighed.
    expect(env.info().budget).toEqual({ maxChars: 100, maxImages: 0 });
    expect(env.info().reward).toMatch(/^the mean of its sources' scores: each source weighs the same/);
    await expect(env.run({ ...task!, taskId: 'nowhere/door-1' }, { text: '', images: [] })).rejects.toThrow(/no task "nowhere\/door-1"/);
  });

  it('scores the mean of the sources\' scores: each source weighs the same, whatever its number of tasks', () => {
    const tasks = [
      ...Array.from({ length: 8 }, () => ({ source: 'big', reward: 1 })),
      { source: 'small', reward: 0 },
      { source: 'small', reward: 0 },
      { source: 'small', reward: null },
    ];
    expect(weightedScore(tasks)).toBe(0.5);
    expect(bySourceScores(tasks)).toEqual({ big: { tasks: 8, score: 1 }, small: { tasks: 3, score: 0 } });
    // One source: the plain mean over tasks, as before.
    expect(weightedScore([{ reward: 1 }, { reward: 0 }, { reward: 0 }, { reward: null }])).toBeCloseTo(1 / 3, 12);
    expect(bySourceScores([{ reward: 1 }])).toBeUndefined();
  });
});
