// Terminal styling: colour only on a TTY and when NO_COLOR is unset. Colours are written as the writer's marks
// (terminal.ts), which it alone turns into escape sequences.
import { redactCredentials } from '../foundation/redact.ts';
import { CSI, toStderr } from './terminal.ts';

const on = process.stdout.isTTY && !process.env.NO_COLOR;
const wrap = (code: number) => (s: string) => (on ? `${CSI}${code}m${s}${CSI}0m` : s);

export const bold = wrap(1);
export const dim = wrap(2);
export const red = wrap(31);
export const green = wrap(32);
export const yellow = wrap(33);
export const cyan = wrap(36);
export const ok = (pass: boolean) => (pass ? green('✓') : red('✗'));

/** Progress notes from environments (episode collection, data warnings) go to stderr, one per line. */
export const noteToStderr = (message: string) => toStderr(`${redactCredentials(message)}\n`);

/** A duration as "1m05s". */
export const clock = (ms: number) => `${Math.floor(ms / 60000)}m${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}s`;
