// Reading a memory payload as experience, whatever format a memo program chose: find past tasks (an instruction
// line), their outcomes (success / failure / reward) and the actions they took (each environment says what an
// action looks like). Then align a past task's instruction with this task's, so its actions can be repeated with
// this task's own arguments. Shared by the reference agents of the visual and web environments.

/**
 * How the reference agents read a payload, for the meta agent's prompt: written beside the reader it describes.
 * `actions` says what an action line looks like in this environment; `replay` what a replayed success gives.
 */
export function experienceReaderGuide(actions: string, replay: string): string {
  return (
    'the offline reference agent reads only the payload text (images are ignored), line by line. A line starts a past ' +
    'task when it is labelled "Task: <instruction>" (or Instruction:, Question:, Goal:; list markers and # before it ' +
    'are fine), or when its words match this task\'s instruction with similarity >= 0.7 (2 x common words in order / ' +
    'total words). The past task\'s outcome is read on that line or on any later line before the next past task: ' +
    'success, succeeded, solved, correct, accepted; failure, failed, wrong, rejected; or "reward: x" (>= 0.5 is a ' +
    `success). Its actions are the ${actions} found on the lines after it, in order, one per line (text after "->" ` +
    'on that line is its result, not another action; numbering and other text before the action are fine). Past answers are never ' +
    'replayed. Then, among past tasks with actions whose instruction has similarity >= 0.7 with this one (most similar ' +
    `first): if one succeeded, its actions are replayed once each, with this task's own arguments put where the two ` +
    `instructions differ, and ${replay}; otherwise the agent runs its own generic procedure and avoids the calls ` +
    'failed ones made. A past task without an outcome is neither replayed nor avoided; advice in prose, rules and ' +
    'summaries are not read at all. Without a usable past task the agent scores what it scores with no memory.'
  );
}

export interface Experience {
  instruction?: string;
  outcome?: 'success' | 'failure';
  /** Actions in order, canonical form (answers excluded). */
  actions: string[];
}

/** The actions found in one line, canonical form, and where the first starts (-1: none). */
export type CallReader = (line: string) => { calls: string[]; start: number };

const INSTRUCTION = /(?:^|[\s#*>|-])(?:task|instruction|question|goal)\s*[:=]\s*(.+)$/i;
/** Where a header line's instruction ends and its outcome begins: "… — failed (reward 0.00)]". */
const TAIL = /\s+[—–]\s+|\s+-\s+(?=(?:failed|succeeded|success|failure)\b)|\]\s*$/i;

function outcomeOf(text: string): 'success' | 'failure' | undefined {
  if (!/outcome|verdict|status|reward|result:|succe|fail|solved|correct/i.test(text)) return undefined;
  const r = text.match(/reward\s*[:=]?\s*\(?\s*(\d(?:\.\d+)?)/i);
  if (/\b(failure|failed|fail|unsolved|incorrect|wrong|rejected)\b/i.test(text)) return 'failure';
  if (/\b(success|successful|succeeded|solved|correct|accepted)\b/i.test(text)) return 'success';
  if (r) return Number(r[1]) >= 0.5 ? 'success' : 'failure';
  return undefined;
}

/**
 * A line that names a past task: "Task: …" (or Instruction/Question/Goal), or — when `ours` is given — any line
 * that reads like our own instruction once list markers and labels are stripped ("[… — failed (reward 0)]",
 * "## Lesson: …"), as memory formats that do not label their tasks write them. Returns the instruction and the
 * rest of the line (where an outcome may be).
 */
function instructionOf(line: string, ours: string | undefined, minSimilarity: number): { instruction: string; rest: string } | undefined {
  const split = (s: string) => {
    const m = s.match(TAIL);
    return m?.index !== undefined ? { instruction: s.slice(0, m.index).trim(), rest: s.slice(m.index) } : { instruction: s.trim(), rest: '' };
  };
  const labelled = line.match(INSTRUCTION);
  if (labelled) return split(labelled[1] as string);
  if (!ours) return undefined;
  const candidate = split(line.replace(/^[\s#>*•\-[(]*(?:\d+[.)]\s*)?(?:[A-Za-z][A-Za-z ]{0,24}:\s+)?/, ''));
  const n = words(candidate.instruction).length;
  if (n < 3 || n > 3 * words(ours).length + 10) return undefined;
  return align(ours, candidate.instruction).similarity >= minSimilarity ? candidate : undefined;
}

export interface ParseOptions {
  /** This task's instruction: lets unlabelled lines that read like it count as past tasks. */
  ours?: string;
  /** Similarity an unlabelled line needs (default 0.7). */
  minSimilarity?: number;
  /** Rewrites a raw line before reading it (e.g. drops past answers). */
  clean?: (line: string) => string;
}

export function parseExperience(text: string, callsIn: CallReader, options: ParseOptions = {}): Experience[] {
  const out: Experience[] = [];
  let cur: Experience = { actions: [] };
  const flush = () => {
    if (cur.instruction || cur.actions.length) out.push(cur);
    cur = { actions: [] };
  };
  for (const raw of text.split('\n')) {
    // A past answer is never a call to repeat (and never this task's answer).
    const line = (options.clean ? options.clean(raw) : raw).trim();
    if (!line) continue;
    const found = callsIn(line);
    const prose = found.start >= 0 ? line.slice(0, found.start) : line;
    const header = found.start === 0 ? undefined : instructionOf(prose, options.ours, options.minSimilarity ?? 0.7);
    if (header) {
      flush();
      cur.instruction = header.instruction;
      const o = outcomeOf(header.rest);
      if (o) cur.outcome = o;
    } else if (!cur.outcome) {
      const o = outcomeOf(prose);
      if (o) cur.outcome = o;
    }
    cur.actions.push(...found.calls);
  }
  flush();
  return out;
}

// --- instruction alignment -------------------------------------------------------------------------------

export function words(s: string): string[] {
  return [...s.matchAll(/"[^"]*"|[\p{L}\p{N}][\p{L}\p{N}'/.%:-]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu)].map((m) => m[0]);
}

const norm = (w: string) => w.replace(/^"|"$/g, '').toLowerCase();
/** A word without its quotes, case kept (what an argument is replaced by). */
const unquote = (w: string) => w.replace(/^"|"$/g, '');

export interface Alignment {
  /** 2·LCS / (|a| + |b|) over words. */
  similarity: number;
  /** Their argument → ours, for the words where the two instructions differ. */
  mapping: Map<string, string>;
}

export function align(ours: string, theirs: string): Alignment {
  const a = words(ours);
  const b = words(theirs);
  const n = a.length;
  const m = b.length;
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (L[i] as number[])[j] = norm(a[i] as string) === norm(b[j] as string) ? (L[i + 1]?.[j + 1] as number) + 1 : Math.max(L[i + 1]?.[j] as number, L[i]?.[j + 1] as number);
  const mapping = new Map<string, string>();
  let i = 0;
  let j = 0;
  let gapA: string[] = [];
  let gapB: string[] = [];
  const closeGap = () => {
    if (gapA.length && gapB.length) {
      if (gapA.length === gapB.length) gapB.forEach((w, k) => mapping.set(norm(w), unquote(gapA[k] as string)));
      else mapping.set(gapB.map(norm).join(' '), gapA.map(unquote).join(' '));
    }
    gapA = [];
    gapB = [];
  };
  while (i < n && j < m) {
    if (norm(a[i] as string) === norm(b[j] as string)) {
      closeGap();
      i++;
      j++;
    } else if ((L[i + 1]?.[j] as number) >= (L[i]?.[j + 1] as number)) gapA.push(a[i++] as string);
    else gapB.push(b[j++] as string);
  }
  gapA.push(...a.slice(i));
  gapB.push(...b.slice(j));
  closeGap();
  return { similarity: n + m ? (2 * (L[0]?.[0] as number)) / (n + m) : 0, mapping };
}


/** Replaces a past task's arguments by ours in a value (whole value first, then word by word). */
export function swapArguments(v: string, mapping: Map<string, string>): string {
  const direct = mapping.get(v.toLowerCase());
  if (direct !== undefined) return direct;
  let out = v;
  for (const [from, to] of mapping) if (from.length > 1) out = out.replace(new RegExp(`\\b${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi'), to);
  return out;
}
