// Reading a memory payload for the visual reference agent: the shared experience reader (../../../experience.ts)
// with tool calls as actions, and past calls adapted to this task's arguments.
import { type Experience, type ParseOptions, parseExperience, swapArguments } from '../../../experience.ts';
import { formatCall, parseCall, type ToolCall } from '../../tools/grammar.ts';

export { align, type Alignment, type Experience, words } from '../../../experience.ts';

/** Tool calls found in one line (the line itself, or calls embedded after other text) and where the first starts. */
function callsIn(line: string, known: ReadonlySet<string>): { calls: ToolCall[]; start: number } {
  const whole = parseCall(line, known);
  if (whole) return { calls: [whole], start: 0 };
  const calls: ToolCall[] = [];
  let start = -1;
  const names = [...known].join('|');
  const re = new RegExp(`\\b(?:${names})\\b\\s*(?:\\[|\\(|[a-z_]+=)`, 'gi');
  for (const m of line.matchAll(re)) {
    const rest = line.slice(m.index).split(/\s(?:->|→|=>)\s|[;|]\s|\s{3,}/)[0] as string;
    const c = parseCall(rest, known);
    if (!c) continue;
    if (start < 0) start = m.index;
    // Inside prose, words after the call are prose: keep one bare word only for calls that take one (visit x).
    calls.push({ ...c, words: c.box || Object.keys(c.args).length ? [] : c.words.slice(0, 1) });
  }
  return { calls, start };
}

export function parseMemory(text: string, known: ReadonlySet<string>, options: ParseOptions = {}): Experience[] {
  return parseExperience(
    text,
    (line) => {
      const found = callsIn(line, known);
      return { calls: found.calls.map(formatCall), start: found.start };
    },
    { ...options, clean: (raw) => raw.replace(/<answer>[\s\S]*?<\/answer>/gi, ' ') },
  );
}

/** A past call with its task's arguments replaced by ours (in key=value values and bare words, never boxes). */
export function adapt(action: string, mapping: Map<string, string>, known: ReadonlySet<string>): string {
  const c = adaptCall(action, mapping, known);
  return c ? formatCall(c) : action;
}

/** `adapt`, parsed: undefined when the action is not a call. */
export function adaptCall(action: string, mapping: Map<string, string>, known: ReadonlySet<string>): ToolCall | undefined {
  const c = parseCall(action, known);
  if (!c) return undefined;
  const swap = (v: string) => swapArguments(v, mapping);
  const args: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.args)) args[k] = k === 'image' ? v : swap(v);
  return { ...c, args, words: c.words.map(swap) };
}
