// The search's port to where its run is kept: the only way it reads and writes its run. It names folders where
// programs and evidence go (evaluations and quick examinations write there), writes program files and meta files,
// and keeps the journal: every event appended and fsync'd before the search moves on, read back on resume.
// Implemented by run-store/run-folder.ts (RunFolder); the search imports nothing from there.
import type { ProgramFiles } from '../../memo-programs/files.ts';
import type { JournalEvent, NewEvent } from './journal-events.ts';
import type { MetaFile } from './meta-file.ts';

export interface JournalWriter {
  /** Writes the event durably and returns it as read back (its time filled in, credentials in it hidden). */
  append(event: NewEvent): JournalEvent;
  close(): void;
}

export interface RunStore {
  /** The run's folder: program and evidence folders are named relative to it in the journal. */
  readonly dir: string;
  programDir(node: string): string;
  evidenceDir(node: string, split: string, index: number): string;
  /** Writes a program's files (entry index.ts) and returns its folder. */
  writeProgram(node: string, files: ProgramFiles): string;
  /**
   * Moves a program's folder to a free name beside it (`to`, else `to-2`, …) and returns where it went: a try written
   * at the child's own name that did not become the child keeps its files.
   */
  moveProgram(from: string, to: string): string;
  /** Writes what the meta agent said about a child. */
  writeMeta(node: string, meta: MetaFile): void;
  /** The run's description; the search reads when it was created (its id in job keys). */
  read(): { createdAt: string };
  /** The journal's events so far (a last line torn by a kill is dropped). */
  readJournal(): { events: JournalEvent[] };
  /** Opens the journal for appending (after cutting off a torn last line). */
  openJournal(): JournalWriter;
}
