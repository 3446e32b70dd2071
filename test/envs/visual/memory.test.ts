// How the reference agent reads memory payloads of different shapes and re-targets a sibling's calls.
import { describe, expect, it } from 'vitest';
import { adapt, align, parseMemory } from '../../../envs/visual/agents/reference/memory.ts';

const KNOWN = new Set(['zoom', 'ocr', 'objects']);

describe('reading memory payloads', () => {
  it('reads a payload the way the meta agent is told it does (experienceReaderGuide)', () => {
    const text = [
      '# Lessons',
      'Always check the legend first.',
      '- Task: How many blue objects are there? — succeeded',
      '1. objects [0,0,999,999] color=blue -> 2 objects',
      'then zoom [0,0,500,500]',
      'How many red objects are there?',
      'reward: 0',
      'objects [0,0,999,999] color=red',
      '<answer>3</answer>',
    ].join('\n');
    expect(parseMemory(text, KNOWN, { ours: 'How many green objects are there?' })).toEqual([
      {
        instruction: 'How many blue objects are there?',
        outcome: 'success',
        actions: ['objects [0,0,999,999] color=blue', 'zoom [0,0,500,500]'],
      },
      {
        instruction: 'How many red objects are there?',
        outcome: 'failure',
        actions: ['objects [0,0,999,999] color=red'],
      },
    ]);
  });

  it('reads the trajectory-retrieval format: task, outcome, numbered actions with results', () => {
    const text = [
      'Similar past tasks, most similar first:',
      '',
      '### Past episode 1 (similarity 0.91)',
      'Task: How many red rubber objects are there?',
      'Outcome: FAILURE (reward 0.00)',
      'Actions:',
      '  1. objects [0,0,999,999] color=red style=filled -> 3 objects',
      '  2. <answer>3</answer>',
      '### Past episode 2 (similarity 0.88)',
      'Task: How many blue rubber objects are there?',
      'Outcome: SUCCESS (reward 1.00)',
      'Actions:',
      '  1. objects [0,0,999,999] color=blue style=outline -> 2 objects',
      'Final answer: 2',
    ].join('\n');
    expect(parseMemory(text, KNOWN)).toEqual([
      {
        instruction: 'How many red rubber objects are there?',
        outcome: 'failure',
        actions: ['objects [0,0,999,999] color=red style=filled'],
      },
      {
        instruction: 'How many blue rubber objects are there?',
        outcome: 'success',
        actions: ['objects [0,0,999,999] color=blue style=outline'],
      },
    ]);
  });

  it('finds calls embedded in free text and rewards written as numbers', () => {
    const [e] = parseMemory(
      'instruction: read the serial\nreward=1\nI used ocr [666,666,998,998] then answered; zoom [0,0,10,10] was useless',
      KNOWN,
    );
    expect(e).toEqual({
      instruction: 'read the serial',
      outcome: 'success',
      actions: ['ocr [666,666,998,998]', 'zoom [0,0,10,10]'],
    });
  });

  it('recognises unlabelled past tasks that read like this one, with outcomes on the same or the next line', () => {
    const ours = 'How many rubber squares are in the scene?';
    const bm25 = [
      '[How many rubber circles are in the scene? — failed (reward 0.00)]',
      'objects [0,0,999,999] shape=circles style=filled -> 4 objects',
      '<answer>4</answer>',
      '',
      '[How many rubber triangles are in the scene? — succeeded (reward 1.00)]',
      'objects [0,0,999,999] shape=triangles style=outline -> 2 objects',
    ].join('\n');
    expect(parseMemory(bm25, KNOWN, { ours })).toEqual([
      {
        instruction: 'How many rubber circles are in the scene?',
        outcome: 'failure',
        actions: ['objects [0,0,999,999] shape=circles style=filled'],
      },
      {
        instruction: 'How many rubber triangles are in the scene?',
        outcome: 'success',
        actions: ['objects [0,0,999,999] shape=triangles style=outline'],
      },
    ]);
    const lesson =
      '## Lesson: How many rubber circles are in the scene?\nThis failed (answer rejected). Steps taken: objects [0,0,999,999] shape=circles style=filled -> 4 objects ; <answer>4</answer>';
    expect(parseMemory(lesson, KNOWN, { ours })).toEqual([
      {
        instruction: 'How many rubber circles are in the scene?',
        outcome: 'failure',
        actions: ['objects [0,0,999,999] shape=circles style=filled'],
      },
    ]);
    // Without our instruction, unlabelled lines are not taken for tasks.
    expect(parseMemory(bm25, KNOWN).every((e) => e.instruction === undefined)).toBe(true);
    // A line about something else is not a past task of ours.
    expect(
      parseMemory('[Which door leads out of the maze? — succeeded]\nobjects [0,0,999,999]', KNOWN, { ours })[0]
        ?.instruction,
    ).toBeUndefined();
  });

  it('returns nothing useful from a payload without tasks or calls', () => {
    expect(parseMemory('Caroline went to a support group.', KNOWN)).toEqual([]);
  });
});

describe('aligning a sibling with this task', () => {
  it('maps the words where two instructions differ and scores their similarity', () => {
    const a = align(
      'How many objects are left of the "yellow" sphere?',
      'How many objects are left of the "green" square?',
    );
    expect(a.similarity).toBeGreaterThan(0.75);
    expect([...a.mapping]).toEqual([
      ['green', 'yellow'],
      ['square', 'sphere'],
    ]);
    expect(align('What is the serial number on the rig?', 'Which door leads to the goal?').similarity).toBeLessThan(
      0.4,
    );
  });

  it("rewrites a sibling's call with this task's arguments, leaving boxes alone", () => {
    const { mapping } = align(
      'How many objects are left of the "yellow" sphere?',
      'How many objects are left of the "green" square?',
    );
    expect(adapt('objects [0,0,999,999] left-of="green square" by=centre', mapping, KNOWN)).toBe(
      'objects [0,0,999,999] left-of="yellow sphere" by=centre',
    );
    expect(adapt('ocr [100,200,300,400]', mapping, KNOWN)).toBe('ocr [100,200,300,400]');
  });
});
