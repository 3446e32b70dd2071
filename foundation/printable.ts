// Text from outside — a dataset's ids and scenarios, a run folder, a program's error, a model's reply — as a
// terminal may show it. A control character reaching a terminal is an instruction to it: ESC starts sequences that
// clear the screen, set the window title, write the clipboard (OSC 52) or hide a link behind text (OSC 8); a C1
// control (U+0080–U+009F) is ESC's one-character form on terminals that read them; a carriage return overwrites the
// line shown. Bidirectional overrides and isolates make text read in another order than it is (a "Trojan source").
// Each is written as a visible \uXXXX escape, which is also a valid JSON escape: JSON made printable stays JSON and
// reads back to the same value. Line feeds and tabs stay.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character but line feed and tab, and every bidi control, written as \uXXXX. */
export function printable(text: string): string {
  return text.replace(CONTROLS, escape);
}
