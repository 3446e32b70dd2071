import { describe, expect, it } from 'vitest';
import { stem } from '../../../memo-programs/lib/stem.ts';
import type { MemoContext } from '../../../memo-programs/contract.ts';
import { episodeText, extractUnits, type FindBy, namesIn, type StoreOptions, type UnitKind, UnitStore } from '../../../memo-programs/lib/unit-store.ts';
import { clock, dialogue, SESSIONS, smallStore } from '../../support/pipeline-store.ts';

const cut = (ep: Parameters<typeof extractUnits>[0], units: UnitKind, window: number, maxUnitChars: number, findBy: FindBy = 'content') =>
  extractUnits(ep, { units, window, maxUnitChars, findBy, episodeText: 'procedure', notes: false, indexFull: false });

describe('unit extraction', () => {
  const ep = dialogue('S1', '2023-05-08', SESSIONS[0]![2]);

  it('keeps each step whole, with the id and speaker the episode gives', () => {
    const units = cut(ep, 'steps', 1, 4000);
    expect(units).toHaveLength(5);
    const text = 'Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.';
    expect(units[1]).toEqual({ id: 'S1:2', speaker: 'Ben', text, searchText: text, embedText: text, step: 1 });
  });

  it('finds a window unit by the steps around it but shows only its own step', () => {
    const units = cut(ep, 'windows', 1, 4000);
    expect(units[1]!.text).toBe('Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.');
    expect(units[1]!.searchText).toContain('last weekend');
    expect(units[1]!.searchText).toContain('What did you see?');
    expect(units[1]!.searchText).not.toContain('black bear');
  });

  it('makes one unit of a whole episode, with the task and outcome for task episodes', () => {
    const task = { ...ep, meta: {}, instruction: 'book a flight', outcome: { reward: 0, success: false }, answer: 'no seats' };
    const [unit] = cut(task, 'episodes', 1, 4000);
    expect(unit!.text.split('\n')[0]).toBe('Task: book a flight — failed (reward 0.00)');
    expect(unit!.text).toContain('2. Ben: Yes, I went hiking');
    expect(unit!.text.endsWith('Answer: no seats')).toBe(true);
    expect(episodeText(task, 30)).toHaveLength(30);
  });

  it('shows a past task as its procedure: every step, each with the start of its result, however long the pages', () => {
    const page = `- generic "Sort by recently updated" [ref=f1e11]\n${'  - listitem: a repository\n'.repeat(400)}`;
    const steps = [0, 1, 2].map((index) => ({ index, action: `Click [e${index}] link "step ${index}"`, result: page }));
    const task = { ...ep, meta: {}, steps, instruction: 'find the most starred repository', outcome: { reward: 1, success: true } };
    const [unit] = cut(task as typeof ep, 'episodes', 1, 4000);
    const lines = unit!.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).map((l) => l.slice(0, 26))).toEqual(['1. Click [e0] link "step 0', '2. Click [e1] link "step 1', '3. Click [e2] link "step 2']);
    expect(lines.slice(1).every((l) => l.length <= 244 && l.endsWith('…'))).toBe(true);
    // A dialogue's turns are its content: kept whole.
    const long = dialogue('L', '2023-01-01', [['Anna', `I ${'really '.repeat(60)}liked it`]]);
    expect(cut(long, 'episodes', 1, 4000)[0]!.text).toContain('really liked it');
  });

  it('finds units by their task’s instruction when asked, showing the same text', () => {
    const task = { ...ep, meta: {}, instruction: 'book a flight to Oslo', outcome: { reward: 1, success: true } };
    const [whole] = cut(task, 'episodes', 1, 4000, 'instruction');
    expect(whole!.searchText).toBe('book a flight to Oslo');
    expect(whole!.text).toBe(cut(task, 'episodes', 1, 4000)[0]!.text);
    const steps = cut(task, 'steps', 1, 4000, 'instruction');
    expect(steps[1]!.searchText).toBe('book a flight to Oslo\nBen: Yes, I went hiking near Lake Tahoe with my sister Clara.');
    expect(steps[1]!.text).toBe('Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.');
  });

  it('clips a giant step instead of storing it whole', () => {
    const huge = dialogue('H', '2023-01-01', [['Anna', 'x'.repeat(100_000)]]);
    expect(cut(huge, 'steps', 1, 4000)[0]!.text.length).toBe(4000);
  });
});

describe('the unit store', () => {
  it('keeps units in order with their source time, and finds neighbours only inside a source', async () => {
    const { store } = await smallStore();
    expect(store.units).toHaveLength(9);
    expect(store.sources.map((s) => s.time)).toEqual([Date.parse('2023-05-08T10:00:00Z'), Date.parse('2023-06-20T10:00:00Z')]);
    expect(store.neighbour(1, 1)?.text).toBe('Anna: That sounds lovely. What did you see?');
    expect(store.neighbour(4, 1)).toBeUndefined();
    expect(store.neighbour(0, -1)).toBeUndefined();
  });

  it('knows speakers and capitalised names, not sentence openers that are stopwords', async () => {
    const { store } = await smallStore();
    expect(store.knownNames('What did Anna and Clara do in June?')).toEqual(['anna', 'clara', 'june']);
    expect(namesIn('What did Anna say?')).toContain('what');
    expect(store.knownNames('What did Anna say?')).toEqual(['anna']);
    expect(store.speakers.has('ben')).toBe(true);
  });

  it('finds a window densely by the sum of its steps’ vectors (and its task’s, when found by it), embedding each text once', async () => {
    const steps = SESSIONS[0]![2];
    const texts = [...steps.map(([who, said]) => `${who}: ${said}`), 'Conversation, 2023-05-08'];
    // Each text gets its own axis, so a sum shows exactly which steps (and the instruction) a unit is found by.
    const vectorsOf = async (options: StoreOptions) => {
      const embedded: string[] = [];
      const added: { label: number; vector: number[] }[] = [];
      const ctx = {
        ...clock(),
        embed: async (batch: string[]) => {
          embedded.push(...batch);
          return batch.map((t) => texts.map((x) => (x === t ? 1 : 0)));
        },
        vectors: { create: async () => ({ addMany: async (items: typeof added) => void added.push(...items) }) },
      } as unknown as MemoContext;
      await new UnitStore({ index: 'dense', ...options }).add(dialogue('S1', '2023-05-08', steps), ctx);
      return { embedded, vectors: added.map((a) => a.vector) };
    };
    const windows = await vectorsOf({ units: 'windows', window: 1 });
    expect(windows.embedded).toEqual(texts.slice(0, 5));
    expect(windows.vectors).toEqual([
      [1, 1, 0, 0, 0, 0],
      [1, 1, 1, 0, 0, 0],
      [0, 1, 1, 1, 0, 0],
      [0, 0, 1, 1, 1, 0],
      [0, 0, 0, 1, 1, 0],
    ]);
    const byTask = await vectorsOf({ units: 'steps', findBy: 'instruction' });
    expect(byTask.embedded).toEqual(texts);
    expect(byTask.vectors[2]).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('stops adding at its unit limit', async () => {
    const { store } = await smallStore({ maxUnits: 6 });
    expect(store.units).toHaveLength(6);
  });

  it('stems word families together', () => {
    expect(stem('hiking')).toBe(stem('hikes'));
    expect(stem('volunteering')).toBe(stem('volunteer'));
    expect(stem('2023')).toBe('2023');
  });
});
