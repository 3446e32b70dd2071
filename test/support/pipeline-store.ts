// A small dialogue memory for the pipeline block tests: two sessions a month apart, lexical index only (no embedding
// service is needed), and a context that supplies just what a lexical store and the stages read: the clock, the
// budget and a log.
import type { EpisodeRecorder, MemoContext, PartialRecorder } from '../../memo-programs/contract.ts';
import { initialState, type RetrievalState } from '../../memo-programs/lib/retrieval-state.ts';
import { type StoreOptions, UnitStore } from '../../memo-programs/lib/unit-store.ts';

export function dialogue(taskId: string, date: string, turns: [string, string][]): EpisodeRecorder {
  return {
    taskId,
    env: 'test',
    instruction: `Conversation, ${date}`,
    initial: {},
    steps: turns.map(([speaker, text], index) => ({ index, action: `${speaker}: ${text}` })),
    outcome: { reward: 1, success: true },
    meta: { kind: 'dialogue', date, turns: turns.map(([speaker, text], i) => ({ id: `${taskId}:${i + 1}`, speaker, text })) },
  };
}

export const SESSIONS: [string, string, [string, string][]][] = [
  [
    'S1',
    '2023-05-08T10:00:00Z',
    [
      ['Anna', 'Did you go anywhere last weekend?'],
      ['Ben', 'Yes, I went hiking near Lake Tahoe with my sister Clara.'],
      ['Anna', 'That sounds lovely. What did you see?'],
      ['Ben', 'We saw a black bear crossing the trail at dawn.'],
      ['Anna', 'I adopted a puppy named Biscuit yesterday.'],
    ],
  ],
  [
    'S2',
    '2023-06-20T10:00:00Z',
    [
      ['Ben', 'How is Biscuit doing?'],
      ['Anna', 'Biscuit chewed my running shoes, but he is learning fast.'],
      ['Ben', 'Clara started a pottery class in June.'],
      ['Anna', 'Pottery sounds relaxing; I painted a sunset last month.'],
    ],
  ],
];

export function clock(maxChars = 4000): MemoContext & { at: number } {
  const ctx = {
    at: 0,
    now: () => ctx.at,
    log: () => undefined,
    budget: { maxChars, maxImages: 0 },
  };
  return ctx as unknown as MemoContext & { at: number };
}

export async function smallStore(options: StoreOptions = {}, maxChars = 4000): Promise<{ store: UnitStore; ctx: MemoContext }> {
  const store = new UnitStore({ index: 'bm25', ...options });
  const ctx = clock(maxChars);
  for (const [id, date, turns] of SESSIONS) {
    ctx.at = Date.parse(date);
    await store.add(dialogue(id, date, turns), ctx);
  }
  return { store, ctx };
}

export function question(text: string): PartialRecorder {
  return { taskId: 'q', env: 'test', instruction: text, initial: {}, meta: {} };
}

export async function stateFor(text: string, options: StoreOptions = {}, maxChars = 4000): Promise<RetrievalState> {
  const { store, ctx } = await smallStore(options, maxChars);
  return initialState(question(text), store, ctx);
}

/** The text of each hit's unit, best first. */
export function hitTexts(state: RetrievalState): string[] {
  return state.hits.map((h) => state.store.units[h.label]?.text ?? '');
}
