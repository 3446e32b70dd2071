// Reading web experience out of memory payloads in several formats, and adapting a sibling's actions.
import { describe, expect, it } from 'vitest';
import { align } from '../../../envs/experience.ts';
import { adaptAction, datePairs, parseWebMemory } from '../../../envs/web/agents/reference/memory.ts';

describe('web memory reading', () => {
  it('reads trajectory-retrieval blocks: task, outcome, actions by role and name; errors and answers dropped', () => {
    const text = [
      '### Past episode 1 (similarity 0.91)',
      'Task: On ShopLite, find the cheapest kettle in Kitchen.',
      'Outcome: SUCCESS (reward 1.00)',
      'Actions:',
      '  1. Click [e14] link "Kitchen" -> now at Kitchen (/c/kitchen)',
      '  2. Click [e3] generic "Refine ▸" -> still at Kitchen (/c/kitchen)',
      '  3. Click [e9] link "Missing" [error: no link named "Missing" on this page]',
      '  4. Select [f1e5] combobox "Sort"; Price: low to high -> still at Kitchen',
      '  5. Click [e40] -> now at somewhere',
      '  6. ANSWER; $12.50',
      'Final answer: $12.50',
    ].join('\n');
    expect(parseWebMemory(text)).toEqual([
      {
        instruction: 'On ShopLite, find the cheapest kettle in Kitchen.',
        outcome: 'success',
        actions: ['Click link "Kitchen"', 'Click generic "Refine ▸"', 'Select combobox "Sort"; Price: low to high'],
      },
    ]);
  });

  it('reads unlabelled lines that read like its own task, with failures', () => {
    const ours = 'On ShopLite, find the cheapest toaster in Garden.';
    const [e] = parseWebMemory('- On ShopLite, find the cheapest kettle in Kitchen. — failed (reward 0)\n  Click link "Kitchen"; then Click link "Next page"', { ours });
    expect(e).toMatchObject({ outcome: 'failure', actions: ['Click link "Kitchen"', 'Click link "Next page"'] });
  });

  it("substitutes this task's arguments into names and typed text, dates in the format the sibling typed", () => {
    const theirs = 'On TravelDesk, find the cheapest flight from Oslo to Rome on 2026-03-14.';
    const ours = 'On TravelDesk, find the cheapest flight from Paris to Lima on 2026-05-02.';
    const a = align(ours, theirs);
    const dates = datePairs(theirs, ours);
    expect(adaptAction('Type textbox "From"; Oslo', a.mapping, dates)).toBe('Type textbox "From"; Paris');
    expect(adaptAction('Click link "Rome"', a.mapping, dates)).toBe('Click link "Lima"');
    expect(adaptAction('Type textbox "Date"; 14/03/2026', a.mapping, dates)).toBe('Type textbox "Date"; 02/05/2026');
    expect(adaptAction('Click generic "Flexible dates"', a.mapping, dates)).toBe('Click generic "Flexible dates"');
  });
});
