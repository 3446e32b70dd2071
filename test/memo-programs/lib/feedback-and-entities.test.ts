// What the new vocabulary lets a pipeline say: the outcome's feedback (outcome.note) kept and shown, memory filed by
// the entity it concerns and found for that entity's tasks, whole episodes as trajectory blocks, distilled items.
import { describe, expect, it } from 'vitest';
import { bm25Stage } from '../../../memo-programs/lib/search-stages.ts';
import { entityBoost, entityFilter } from '../../../memo-programs/lib/entity-focus.ts';
import { packWhole } from '../../../memo-programs/lib/packing.ts';
import { runStages } from '../../../memo-programs/lib/pipeline.ts';
import { offlineItems } from '../../../memo-programs/lib/distill.ts';
import { trajectoryText } from '../../../memo-programs/lib/episode-units.ts';
import { ticketState, ticketStore, ticketTask, TICKETS } from '../../support/ticket-store.ts';

describe("the outcome's feedback", () => {
  it('is dropped by default, kept as a unit of its own with notes, and found by its words', async () => {
    const plain = await ticketStore();
    expect(plain.store.units.map((u) => u.text).join('\n')).not.toContain('DD.MM.YYYY');
    const { store, ctx } = await ticketStore({ notes: true });
    expect(store.units.filter((u) => u.text.startsWith('Feedback: ')).map((u) => u.id)).toEqual([
      'T1#note',
      'T3#note',
      'T4#note',
    ]);
    const payload = await runStages(
      [bm25Stage({ k: 5 })],
      store,
      { ...ticketTask('Brightwater Ltd'), instruction: 'how should dates be written?' },
      ctx,
    );
    expect(payload.text).toContain('please write dates as DD.MM.YYYY');
  });

  it('shows under each episode heading with packWhole notes, within the budget', async () => {
    const state = await ticketState('Brightwater Ltd');
    state.hits = [{ label: 0, score: 1, via: 'a' }];
    await packWhole({ render: 'plain', groupBy: 'episode', notes: true })(state);
    expect(state.payload?.text.split('\n')).toEqual([
      '[Ticket from Brightwater Ltd: confirm the delivery date of the parcel. — failed (reward 0.00)]',
      'Feedback: Brightwater Ltd replied: please write dates as DD.MM.YYYY.',
      'reply: Hello Ada, your parcel ships on 2024-03-04. -> sent to the customer',
    ]);
    const tight = await ticketState('Brightwater Ltd');
    tight.hits = [{ label: 0, score: 1, via: 'a' }];
    await packWhole({ render: 'plain', notes: true, maxChars: 150 })(tight);
    expect(tight.payload?.text).toBe('');
  });

  it("is part of a trajectory block and of a failed episode's lesson item", () => {
    expect(trajectoryText(TICKETS[0]!)).toContain('Note: Brightwater Ltd replied: please write dates as DD.MM.YYYY.');
    expect(trajectoryText(TICKETS[0]!, false)).not.toContain('Note:');
    const [lesson] = offlineItems(TICKETS[2]!, 3);
    expect(lesson).toEqual({
      title: 'Lesson: Ticket from Calloway Foods: confirm the delivery date of the parcel.',
      content: expect.stringContaining('This failed (Calloway Foods replied: please write dates as MM/DD/YYYY.)'),
    });
    expect(offlineItems(TICKETS[1]!, 3)[0]?.title).toBe(
      'Strategy: Ticket from Calloway Foods: confirm the delivery date of the parcel.',
    );
  });
});

describe('memory filed by entity', () => {
  it("restricts the searches to the task's customer with entityFilter, and leaves a task of an unknown one alone", async () => {
    const state = await ticketState('Brightwater Ltd', { notes: true, entity: 'meta', entityMeta: 'customer' });
    await entityFilter()(state);
    await bm25Stage({ k: 10 })(state);
    const sources = new Set(
      state.lists[0]?.labels.map((l) => state.store.sources[state.store.units[l]!.source]!.taskId),
    );
    expect([...sources].sort()).toEqual(['T1', 'T4']);
    const stranger = await ticketState('Dunmore GmbH', { notes: true, entity: 'meta', entityMeta: 'customer' });
    await entityFilter()(stranger);
    expect(stranger.queries[0]?.only).toBeUndefined();
  });

  it("moves the customer's own units ahead with entityBoost", async () => {
    const state = await ticketState('Calloway Foods', { notes: true, entity: 'meta', entityMeta: 'customer' });
    await bm25Stage({ k: 10 })(state);
    await entityBoost({ weight: 10 })(state);
    const top = state.hits.slice(0, 3).map((h) => state.store.sources[state.store.units[h.label]!.source]!.taskId);
    expect(new Set(top)).toEqual(new Set(['T2', 'T3']));
  });

  it('files by speaker or by the names in the instruction too', async () => {
    const { store } = await ticketStore({ entity: 'names' });
    expect(store.taskEntities(ticketTask('Calloway Foods'))).toEqual(expect.arrayContaining(['calloway', 'foods']));
    expect(store.entities.get('calloway')?.length).toBe(2);
  });
});
