// The action grammar: WebVoyager's forms over refs, role-and-name targets, and what is not an action.
import { describe, expect, it } from 'vitest';
import { formatAction, parseAction, portable } from '../../../envs/web/browser/grammar.ts';

describe('web action grammar', () => {
  it('reads WebVoyager actions with refs, bare numbers and frame refs', () => {
    expect(parseAction('Click [12]')).toEqual({ kind: 'click', ref: 'e12' });
    expect(parseAction('Click [f1e6]')).toEqual({ kind: 'click', ref: 'f1e6' });
    expect(parseAction('Type [e7]; blue kettle')).toEqual({ kind: 'type', ref: 'e7', text: 'blue kettle' });
    expect(parseAction('Type [7]; [14/03/2026]')).toEqual({ kind: 'type', ref: 'e7', text: '14/03/2026' });
    expect(parseAction('Scroll [WINDOW]; up')).toEqual({ kind: 'scroll', window: true, direction: 'up' });
    expect(parseAction('GoBack')).toEqual({ kind: 'back' });
    expect(parseAction('Action: ANSWER; $12.50')).toEqual({ kind: 'answer', text: '$12.50' });
  });

  it('reads elements named by role and name, with #k for the k-th match', () => {
    expect(parseAction('Click link "Refine ▸"')).toEqual({ kind: 'click', role: 'link', name: 'Refine ▸' });
    expect(parseAction('Click [e12] button "Add to cart" #2')).toEqual({ kind: 'click', ref: 'e12', role: 'button', name: 'Add to cart', nth: 2 });
    expect(parseAction('Select combobox "Sort"; Price: low to high')).toEqual({ kind: 'select', role: 'combobox', name: 'Sort', text: 'Price: low to high' });
  });

  it('refuses lines that are not actions', () => {
    expect(parseAction('I would click the button')).toBeUndefined();
    expect(parseAction('Click the blue button')).toBeUndefined();
    expect(parseAction('Type [e3]')).toBeUndefined();
    expect(parseAction('ANSWER')).toBeUndefined();
  });

  it('formats canonical lines that read back the same, and drops refs for other episodes', () => {
    const a = { kind: 'type' as const, ref: 'e4', role: 'textbox', name: 'Check-in "date"', text: '14/03/2026' };
    expect(parseAction(formatAction(a))).toEqual(a);
    expect(portable(a)).toBe('Type textbox "Check-in \\"date\\""; 14/03/2026');
    expect(portable({ kind: 'click', ref: 'e9' })).toBe('Click [e9]');
  });
});
