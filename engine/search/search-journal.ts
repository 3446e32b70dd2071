// The search's state and its journal, held together: the state is the journal folded (replay.ts) when the run opens,
// and every later change is an event recorded here — written to the journal, then applied to the state by the same
// function a resume folds with (applyEvent). Nothing else changes the state.
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { JournalEvent, NewEvent } from './journal-events.ts';
import { replay } from './replay.ts';
import type { SearchState } from './search-state.ts';
import { applyEvent } from './search-state.ts';
import type { JournalWriter, RunStore } from './run-store.ts';

/** What a reader of a search's progress gets with each event: the state after it, the spend, when this session began. */
export interface SearchProgress {
  state: SearchState;
  /** The state's tree. */
  tree: SearchState['tree'];
  ledger: CostLedger;
  startedAt: number;
}

export class SearchJournal {
  readonly state: SearchState;
  /** The journal had lines when this session opened it (a resume). */
  readonly resumed: boolean;
  private readonly writer: JournalWriter;
  private readonly progress: SearchProgress;

  constructor(
    store: RunStore,
    ledger: CostLedger,
    private readonly onEvent?: (event: JournalEvent, progress: SearchProgress) => void,
  ) {
    const { events } = store.readJournal();
    this.resumed = events.length > 0;
    this.state = replay(events, ledger);
    this.writer = store.openJournal();
    this.progress = { state: this.state, tree: this.state.tree, ledger, startedAt: Date.now() };
  }

  /** Writes the event (durably), applies it as written, and tells the progress reader. */
  record(event: NewEvent): JournalEvent {
    const written = this.writer.append(event);
    applyEvent(this.state, written);
    this.onEvent?.(written, this.progress);
    return written;
  }

  close(): void {
    this.writer.close();
  }
}
