// A small memory of past tasks for the vocabulary tests: replies to two customers' tickets, some rejected with the
// checker's feedback in the outcome's note, filed by the customer named in meta; lexical index only.
import type { EpisodeRecorder, MemoContext, PartialRecorder } from '../../memo-programs/contract.ts';
import { initialState, type RetrievalState } from '../../memo-programs/lib/retrieval-state.ts';
import { type StoreOptions, UnitStore } from '../../memo-programs/lib/unit-store.ts';
import { clock } from './pipeline-store.ts';

export function ticket(taskId: string, customer: string, reply: string, note?: string): EpisodeRecorder {
  return {
    taskId,
    env: 'test',
    instruction: `Ticket from ${customer}: confirm the delivery date of the parcel.`,
    initial: {},
    steps: [{ index: 0, action: `reply: ${reply}`, result: 'sent to the customer' }],
    outcome: note ? { reward: 0, success: false, note } : { reward: 1, success: true },
    meta: { customer },
  };
}

export const TICKETS: EpisodeRecorder[] = [
  ticket('T1', 'Brightwater Ltd', 'Hello Ada, your parcel ships on 2024-03-04.', 'Brightwater Ltd replied: please write dates as DD.MM.YYYY.'),
  ticket('T2', 'Calloway Foods', 'Hello Bruno, your parcel ships on 2024-05-01.'),
  ticket('T3', 'Calloway Foods', 'Hello Bruno, your parcel ships on 2024-06-11.', 'Calloway Foods replied: please write dates as MM/DD/YYYY.'),
  ticket('T4', 'Brightwater Ltd', 'Hello Ada, your invoice was issued on 2024-07-02.', 'Brightwater Ltd replied: please open replies with "Dear Ms Okafor".'),
];

export async function ticketStore(options: StoreOptions = {}): Promise<{ store: UnitStore; ctx: MemoContext }> {
  const store = new UnitStore({ index: 'bm25', ...options });
  const ctx = clock();
  for (const [i, ep] of TICKETS.entries()) {
    ctx.at = Date.UTC(2024, 0, 1 + i);
    await store.add(ep, ctx);
  }
  return { store, ctx };
}

export function ticketTask(customer: string): PartialRecorder {
  return { taskId: 'q', env: 'test', instruction: `Ticket from ${customer}: confirm the delivery date of the parcel.`, initial: {}, meta: { customer } };
}

export async function ticketState(customer: string, options: StoreOptions = {}): Promise<RetrievalState> {
  const { store, ctx } = await ticketStore(options);
  return initialState(ticketTask(customer), store, ctx);
}
