// The action grammar, after WebVoyager ("Click [N]", "Type [N]; text", "Scroll [WINDOW]; down", "GoBack",
// "ANSWER; text") with refs from the aria snapshot, plus "Select [N]; option" for native selects. An element can
// also be named by role and name (`Click link "Refine"`, `#2` for the second match), which is how oracles, replays
// and recorded steps refer to it across episodes: a recorded step keeps both (`Click [e12] link "Refine"`).

export type ActionKind = 'click' | 'type' | 'select' | 'scroll' | 'back' | 'wait' | 'answer';

export interface WebAction {
  kind: ActionKind;
  /** "e12" or "f1e6" as the snapshot shows it (a bare number N means eN). */
  ref?: string;
  role?: string;
  name?: string;
  /** 1-based among elements with the same role and name. */
  nth?: number;
  /** Typed text, option label, answer. */
  text?: string;
  direction?: 'up' | 'down';
  /** Scroll the window rather than an element. */
  window?: boolean;
}

const VERBS: [RegExp, ActionKind][] = [
  [/^click\b/i, 'click'],
  [/^type\b/i, 'type'],
  [/^select\b/i, 'select'],
  [/^scroll\b/i, 'scroll'],
  [/^(?:go\s*_?back|back)\b/i, 'back'],
  [/^wait\b/i, 'wait'],
  [/^answer\b/i, 'answer'],
];

/** `[e12]`, `[12]` or `[WINDOW]`, then optionally `role "name"` and `#k`. */
const TARGET = /^\s*(?:\[((?:f\d+)?e\d+|\d+|window)\])?\s*(?:([a-z]+)\s+("(?:[^"\\]|\\.)*"))?\s*(?:#(\d+))?\s*/i;

function unquote(s: string): string {
  try {
    return JSON.parse(s) as string;
  } catch {
    return s.slice(1, -1);
  }
}

/** Parses one action line; undefined when it is not an action. */
export function parseAction(line: string): WebAction | undefined {
  const s = line.trim().replace(/^(?:action\s*:\s*)/i, '');
  const verb = VERBS.find(([re]) => re.test(s));
  if (!verb) return undefined;
  const kind = verb[1];
  let rest = s.replace(verb[0], '');
  if (kind === 'answer') {
    const m = rest.match(/^\s*[;:]\s*([\s\S]*)$/);
    return m ? { kind, text: (m[1] as string).trim() } : undefined;
  }
  if (kind === 'back' || kind === 'wait') return { kind };
  const t = rest.match(TARGET);
  const a: WebAction = { kind };
  if (t) {
    rest = rest.slice(t[0].length);
    if (t[1]) {
      if (/^window$/i.test(t[1])) a.window = true;
      else a.ref = /^\d+$/.test(t[1]) ? `e${t[1]}` : t[1];
    }
    if (t[2] && t[3]) {
      a.role = t[2].toLowerCase();
      a.name = unquote(t[3]);
    }
    if (t[4]) a.nth = Number(t[4]);
  }
  const arg = rest.match(/^\s*;\s*([\s\S]*)$/);
  const text = arg ? (arg[1] as string).trim().replace(/^\[([\s\S]*)\]$/, '$1') : undefined;
  if (kind === 'scroll') {
    if (!a.ref && !a.role) a.window = true;
    a.direction = text && /^up$/i.test(text) ? 'up' : 'down';
    return a;
  }
  if (!a.ref && !a.role) return undefined;
  if (kind === 'type' || kind === 'select') {
    if (text === undefined) return undefined;
    a.text = text;
  } else if (rest.trim() && !/^[;.]?\s*$/.test(rest)) {
    return undefined;
  }
  return a;
}

const VERB_NAME: Record<ActionKind, string> = { click: 'Click', type: 'Type', select: 'Select', scroll: 'Scroll', back: 'GoBack', wait: 'Wait', answer: 'ANSWER' };

/** The canonical line: ref when known, role and name when known, then the argument. */
export function formatAction(a: WebAction): string {
  const verb = VERB_NAME[a.kind];
  if (a.kind === 'answer') return `ANSWER; ${a.text ?? ''}`;
  if (a.kind === 'back' || a.kind === 'wait') return verb;
  const parts = [verb];
  if (a.window) parts.push('[WINDOW]');
  else if (a.ref) parts.push(`[${a.ref}]`);
  if (a.role && a.name !== undefined) parts.push(`${a.role} ${JSON.stringify(a.name)}${a.nth && a.nth > 1 ? ` #${a.nth}` : ''}`);
  let out = parts.join(' ');
  if (a.kind === 'scroll') out += `; ${a.direction ?? 'down'}`;
  else if (a.text !== undefined) out += `; ${a.text}`;
  return out;
}

/** The same action with the ref dropped: how it reads in another episode. */
export function portable(a: WebAction): string {
  const { ref: _ref, ...rest } = a;
  return formatAction(rest.role || rest.window || a.kind === 'answer' || a.kind === 'back' || a.kind === 'wait' ? rest : a);
}
