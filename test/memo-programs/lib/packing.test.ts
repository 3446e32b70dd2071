import { describe, expect, it } from 'vitest';
import { packWhole } from '../../../memo-programs/lib/packing.ts';
import { runStages } from '../../../memo-programs/lib/pipeline.ts';
import { bm25Stage } from '../../../memo-programs/lib/search-stages.ts';
import { question, smallStore, stateFor } from '../../support/pipeline-store.ts';
import { ticketState } from '../../support/ticket-store.ts';

describe('budget packing', () => {
  it('packs whole units best first, grouped under their date in time order, turns in order', async () => {
    const state = await stateFor('x');
    state.hits = [7, 3, 1].map((label, i) => ({ label, score: 1 - i / 10, via: 'a' }));
    await packWhole({ render: 'compact', groupBy: 'time' })(state);
    expect(state.payload!.text).toBe(
      [
        '[8 May 2023]',
        'Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.',
        'Ben: We saw a black bear crossing the trail at dawn.',
        '[20 June 2023]',
        'Ben: Clara started a pottery class in June.',
      ].join('\n'),
    );
    expect(state.payload!.metadata).toMatchObject({ units: ['S2:3', 'S1:4', 'S1:2'], via: ['a', 'a', 'a'], cut: [] });
  });

  it('skips a unit that does not fit instead of cutting it, and names it as cut', async () => {
    const state = await stateFor('x', {}, 75);
    state.hits = [1, 8].map((label, i) => ({ label, score: 1 - i / 10, via: 'a' }));
    await packWhole({ render: 'compact' })(state);
    expect(state.payload!.text).toBe('[8 May 2023]\nBen: Yes, I went hiking near Lake Tahoe with my sister Clara.');
    expect(state.payload!.metadata).toMatchObject({ cut: ['S2:4'] });
  });

  it('plain rendering shows full headings with blank lines; rank order keeps the ranking', async () => {
    const state = await stateFor('x');
    state.hits = [7, 1].map((label, i) => ({ label, score: 1 - i / 10, via: 'a' }));
    await packWhole({ render: 'plain', groupBy: 'rank' })(state);
    expect(state.payload!.text).toBe(
      '[Conversation, 2023-06-20T10:00:00Z] Ben: Clara started a pottery class in June.\n\n[Conversation, 2023-05-08T10:00:00Z] Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.',
    );
  });

  it('a pipeline without a packing stage packs at the end, and an empty memory gives an empty payload', async () => {
    const { store, ctx } = await smallStore();
    const payload = await runStages([bm25Stage()], store, question('Where did Ben go hiking?'), ctx);
    expect(payload.text).toContain('Lake Tahoe');
    expect(payload.text.length).toBeLessThanOrEqual(4000);
    expect(payload.metadata).toMatchObject({ stages: ['bm25Stage'] });
    const { store: empty } = await smallStore({ maxUnits: 0 });
    expect(await runStages([bm25Stage()], empty, question('x'), ctx)).toEqual({ text: '', images: [] });
  });
});

describe('blocks layout', () => {
  it('shows whole episodes as blocks in rank order, headed by rank and similarity; skip passes over a block that does not fit, stop ends there', async () => {
    const make = async (maxChars: number) => {
      const s = await ticketState('Brightwater Ltd', { units: 'episodes', episodeText: 'trajectory', notes: true });
      s.ctx = { ...s.ctx, budget: { maxChars, maxImages: 0 } };
      s.hits = [0, 3, 1].map((label, i) => ({ label, score: 1 - i / 10, via: 'dense', raw: 0.9 - i / 10 }));
      return s;
    };
    const all = await make(4000);
    await packWhole({
      layout: 'blocks',
      header: 'similarity',
      room: 0,
      intro: 'Similar past tasks, most similar first:',
    })(all);
    const text = all.payload?.text ?? '';
    expect(
      text.startsWith(
        'Similar past tasks, most similar first:\n\n### Past episode 1 (similarity 0.90)\nTask: Ticket from Brightwater Ltd',
      ),
    ).toBe(true);
    expect(text).toContain('### Past episode 2 (similarity 0.80)\nTask: Ticket from Brightwater Ltd');
    expect(text).toContain('Note: Brightwater Ltd replied: please open replies with "Dear Ms Okafor".');
    expect(all.payload?.metadata).toMatchObject({ units: ['T1', 'T4', 'T2'] });
    // A budget the first and third blocks fit, the longer second not: skip takes the third, stop does not.
    const [, b1, b2, b3] = text.split(/\n\n(?=### )/).map((b) => b.length);
    expect(b2).toBeGreaterThan(b3 as number);
    for (const [fit, units] of [
      ['skip', ['T1', 'T2']],
      ['stop', ['T1']],
    ] as const) {
      const s = await make((b1 as number) + 2 + (b3 as number) + 2);
      await packWhole({ layout: 'blocks', header: 'similarity', fit, room: 0 })(s);
      expect(s.payload?.metadata, fit).toMatchObject({ units });
    }
  });
});
