import { describe, expect, it } from 'vitest';
import { named } from '../../../memo-programs/lib/retrieval-state.ts';
import { routeByKind, taskKind } from '../../../memo-programs/lib/routing.ts';
import { smallStore, stateFor } from '../../support/pipeline-store.ts';

describe('routing by task kind', () => {
  it("reads a task's kind from its wording and the names the memory knows", async () => {
    const { store } = await smallStore();
    expect(taskKind('When did Anna adopt a puppy?', store)).toBe('time');
    expect(taskKind('What do Anna and Clara both like?', store)).toBe('entities');
    expect(taskKind('How many pets does Anna have?', store)).toBe('count');
    expect(taskKind('Why did Ben go hiking?', store)).toBe('reason');
    expect(taskKind('What did Anna adopt?', store)).toBe('other');
  });

  it("runs only the stages routed to the task's kind", async () => {
    const ran: string[] = [];
    const mark = (name: string) => named(name, () => void ran.push(name));
    const route = routeByKind({ time: [mark('for-time')], other: [mark('for-other')] });
    const state = await stateFor('When did Anna adopt a puppy?');
    await route(state);
    expect(ran).toEqual(['for-time']);
    expect(state.trace).toEqual(['time:for-time']);
    await route(await stateFor('How many pets does Anna have?'));
    expect(ran).toEqual(['for-time']);
  });
});
