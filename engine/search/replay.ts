// The resume rule: a search's state is its journal's lines that count, folded through applyEvent (search-state.ts),
// the function the live search applies each line with as it writes it. A line of a step counts only when that step
// has its `step-done` line, and only when that line comes from the same session (each run of the process starts with
// a `start` line): a step killed half-way and then redone by a resumed run leaves two sets of lines with the same
// step number, and the first set is dropped. Lines of no step, model calls and spend (their cost was real) and stops
// always count.
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { JournalEvent } from './journal-events.ts';
import { applyEvent, emptyState, type SearchState } from './search-state.ts';

export interface Replayed extends SearchState {
  /** Lines that did not count (steps not completed by the session that wrote them). */
  dropped: number;
}

/** Which lines count, by the rule above. */
export function countedLines(events: readonly JournalEvent[]): { counted: JournalEvent[]; dropped: number } {
  // The session that completed each step.
  const doneIn = new Map<number, number>();
  let session = 0;
  const sessionOf: number[] = events.map((e) => {
    if (e.type === 'start') session++;
    if (e.type === 'step-done') doneIn.set(e.step, session);
    return session;
  });
  const counted: JournalEvent[] = [];
  for (const [i, e] of events.entries()) {
    const always = !('step' in e) || e.type === 'meta-call' || e.type === 'spend' || e.type === 'stopped';
    if (always || doneIn.get(e.step) === sessionOf[i]) counted.push(e);
  }
  return { counted, dropped: events.length - counted.length };
}

/** The state a journal leaves a search in (`ledger`: the one to charge its spend to). */
export function replay(events: readonly JournalEvent[], ledger?: CostLedger): Replayed {
  const { counted, dropped } = countedLines(events);
  const state = emptyState(ledger);
  for (const e of counted) applyEvent(state, e);
  return { ...state, dropped };
}
