// Everything the CLI prints goes through `toStdout` and `toStderr`: each text is made printable (foundation/printable.ts), so
// no string from data, a run folder, a program or a model sends a control sequence to the user's terminal, whatever
// command prints it. The CLI's own sequences — colours (style.ts) and the progress line's carriage return — are
// written as marks holding a random key of this process, which the writer alone turns back into the sequences;
// text from outside cannot hold a mark, since it cannot know the key.
import { randomBytes } from 'node:crypto';
import { printable } from '../foundation/printable.ts';

const KEY = `\u{F0000}${randomBytes(12).toString('hex')}`;

/** Our own "ESC [" (style.ts: followed by the colour's code and "m"). */
export const CSI = `${KEY}[`;
/** Our own carriage return (progress.ts: back to the start of the line it redraws). */
export const CR = `${KEY}r`;

const MARKS = new RegExp(`${KEY}(?:\\[(\\d{1,3})m|r)`, 'g');

/** The text as the terminal gets it: printable, with the CLI's own marks turned into their sequences. */
export function forTerminal(text: string): string {
  let shown = '';
  let from = 0;
  for (const m of text.matchAll(MARKS)) {
    shown += printable(text.slice(from, m.index)) + (m[1] !== undefined ? `\u001b[${m[1]}m` : '\r');
    from = m.index + m[0].length;
  }
  return shown + printable(text.slice(from));
}

/** Writes to stdout (looked up at each call: tests capture it). */
export const toStdout = (text: string): void => void process.stdout.write(forTerminal(text));

/** Writes to stderr. */
export const toStderr = (text: string): void => void process.stderr.write(forTerminal(text));
