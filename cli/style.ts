// Terminal styling: colour only on a TTY and when NO_COLOR is unset.
import { redactCredentials } from '../foundation/redact.ts';

const on = process.stdout.isTTY && !process.env.NO_COLOR;
const wrap = (code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

export const bold = wrap(1);
export const dim = wrap(2);
export const red = wrap(31);
export const green = wrap(32);
export const yellow = wrap(33);
export const cyan = wrap(36);
export const ok = (pass: boolean) => (pass ? green('✓') : red('✗'));

/** Progress notes from environments (episode collection, data warnings) go to stderr, one per line. */
export const noteToStderr = (message: string) => void process.stderr.write(`${redactCredentials(message)}\n`);
