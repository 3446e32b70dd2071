// A case's retrieved memory as an analysis shows it, within the characters its share of the evidence budget allows
// (evidence-limits.ts): what matters in it, the rest left out where marked "(… N lines omitted …)". A success shows
// the lines that hold the gold with a line of context either side and the heading above them (where it came from);
// a failure shows how the memory starts (what ranked first) and the places where the gold or the question's words
// appear, and says plainly when the gold is not in it. Either way the header counts the lines, headings, repeats and
// near-empty lines of the whole memory, so a reader can still judge what is redundant or beside the point; the
// evidence prompt says so once (prompts/evidence.txt). A memory that fits its share is shown whole. The memory is a
// program's output: it is bounded before any per-line work.
import { ENGLISH_STOPWORDS } from '../../memo-programs/lib/tokenize.ts';
import { LIMITS } from './evidence-limits.ts';
import { referBack, type Said } from './said-once.ts';

export interface ExcerptRequest {
  /** What the gold looks like in a memory (gold.ts: answers, evidence texts). Empty: the environment gives none. */
  gold: readonly string[];
  /** What the task asked, when known. */
  question?: string;
  success: boolean;
  /** Characters the shown lines may take. */
  chars: number;
  /**
   * Texts the case shows whole above its memory (its records, the agent's answer, a step's result): a shown line
   * holding one shows its reference instead (said-once.ts). Which lines are shown, and what they cost of the share,
   * does not change.
   */
  said?: readonly Said[];
}

export interface MemoryExcerpt {
  /** The header and the shown lines, quoted. */
  text: string;
  /** Characters of memory lines shown (what the share paid for). */
  used: number;
  /** Lines left out. */
  omitted: number;
}

/** A line of under this many words says next to nothing alone ("Keep it up!", "Gina: ;)"). */
const SHORT_WORDS = 5;
/** Lines quoted as examples of the repeated and the near-empty ones, and their length at most. */
const EXAMPLES = 3;
const EXAMPLE_CHARS = 40;
/** Of a question, this much is read, and its distinct words up to this many. */
const QUESTION_CHARS = 2_000;
const QUESTION_WORDS = 40;
/** How far above a gold line its heading is looked for. */
const HEADING_REACH = 40;
/** A line that heads a section: a bracketed date or label, a markdown or === heading. */
const HEADING = /^\s*(?:\[[^\]]{1,80}\]\s*$|#{1,6}\s|={2,}|-{3,}\s*\S)/;

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const words = (s: string) => (fold(s).match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !ENGLISH_STOPWORDS.has(w));
const marker = (n: number) => `(… ${n} line${n === 1 ? '' : 's'} omitted …)`;
const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/** Where in `line` (folded) a gold text is, as its first character; -1 when it holds none. */
function goldAt(folded: string, gold: readonly string[]): number {
  for (const g of gold) {
    const at = folded.indexOf(g);
    if (at >= 0) return at;
  }
  return -1;
}

/** A long line as a window of `room` characters around `at`, saying how much it leaves out on either side. */
function windowed(line: string, at: number, room: number): string {
  if (line.length <= room) return line;
  const from = Math.max(0, Math.min(at - Math.floor(room / 3), line.length - room));
  const to = Math.min(line.length, from + room);
  return `${from ? `[… ${from} characters] ` : ''}${line.slice(from, to)}${to < line.length ? ` [… ${line.length - to} characters]` : ''}`;
}

function listed(lines: number[]): string {
  const shown = lines.slice(0, 8).map(String);
  const more = lines.length > 8 ? ` and ${lines.length - 8} more` : '';
  return `line${lines.length === 1 ? '' : 's'} ${shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0]}${more}`;
}

/** A few examples of a kind of line, each short, quoted. */
function examples(lines: string[]): string {
  const list = [...new Set(lines)];
  if (!list.length) return '';
  const quoted = list.slice(0, EXAMPLES).map((l) => JSON.stringify(l.length > EXAMPLE_CHARS ? `${l.slice(0, EXAMPLE_CHARS)}…` : l));
  return ` (${quoted.join(', ')}${list.length > EXAMPLES ? ', …' : ''})`;
}

/** What the whole memory is made of, for judging redundancy: lines, headings, repeats and near-empty lines. */
function facts(lines: string[], chars: number, read: number): string {
  const seen = new Set<string>();
  const repeats: string[] = [];
  const short: string[] = [];
  let headings = 0;
  for (const l of lines) {
    const f = fold(l);
    if (!f) continue;
    if (seen.has(f)) repeats.push(l.trim());
    else if (HEADING.test(l)) headings++;
    else if (f.split(' ').length < SHORT_WORDS) short.push(l.trim());
    seen.add(f);
  }
  const size = `${chars.toLocaleString('en-US')} characters${read < chars ? ` (the first ${read.toLocaleString('en-US')} read)` : ''}`;
  return [
    count(lines.length, 'line'),
    size,
    count(headings, 'heading'),
    `${repeats.length} repeated${examples(repeats)}`,
    `${short.length} under ${SHORT_WORDS} words${examples(short)}`,
  ].join(', ');
}

/**
 * The lines worth showing, best first: for a success the gold lines, their neighbours and heading; for a failure its
 * first lines (up to `failureHeadShare` of the room), then the gold lines with theirs, then the lines holding the
 * question's words, rarer words counting more (a speaker's name on every line counts for little).
 */
function ranked(lines: string[], folded: string[], goldLines: number[], o: ExcerptRequest): number[] {
  const out: number[] = [];
  const near = (i: number) => {
    const around = [i];
    for (let d = 1; d <= LIMITS.goldContext; d++) around.push(i - d, i + d);
    for (let j = i - 1; j >= Math.max(0, i - HEADING_REACH); j--)
      if (HEADING.test(lines[j] as string)) {
        around.push(j);
        break;
      }
    return around.filter((j) => j >= 0 && j < lines.length);
  };
  // Every gold line before any neighbour: with little room, the gold itself is what must show.
  out.push(...goldLines, ...goldLines.flatMap(near));
  if (o.success && goldLines.length) return out;
  const asked = [...new Set(words((o.question ?? '').slice(0, QUESTION_CHARS)))].slice(0, QUESTION_WORDS);
  if (asked.length) {
    const holders = new Map(asked.map((w) => [w, folded.filter((l) => l.includes(w)).length]));
    const score = (l: string) => asked.reduce((s, w) => s + (l.includes(w) ? 1 / (holders.get(w) as number) : 0), 0);
    const scored = folded.map((l, i) => [i, score(l)] as const).filter(([, s]) => s > 0);
    out.push(...scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i));
  }
  return out;
}

/** The memory within `o.chars`, shown by what matters in it (module comment). */
export function memoryExcerpt(memory: string, o: ExcerptRequest): MemoryExcerpt {
  const read = memory.slice(0, LIMITS.memoryChars);
  if (!read.trim()) return { text: 'Memory the program returned: (empty)', used: 0, omitted: 0 };
  const lines = read.split('\n');
  const folded = lines.map(fold);
  const gold = o.gold.map(fold).filter((g) => g.length >= 3);
  const goldLines = folded.flatMap((l, i) => (goldAt(l, gold) >= 0 ? [i] : []));
  const goldSaid = !gold.length ? '' : goldLines.length ? `; the gold on ${listed(goldLines.map((i) => i + 1))}` : '; the gold not in it';
  const about = `Memory the program returned (${facts(lines, memory.length, read.length)}${goldSaid})`;
  const once = (line: string) => referBack(line, o.said ?? []);
  if (read.length <= o.chars)
    return { text: `${about}, whole:\n"""\n${lines.map(once).join('\n')}\n"""`, used: read.length, omitted: 0 };

  const shown = new Map<number, string>();
  let used = 0;
  const take = (i: number, room = LIMITS.lineChars, force = false): boolean => {
    if (shown.has(i)) return true;
    const line = lines[i] as string;
    const at = goldAt(folded[i] as string, gold);
    const text = windowed(line, Math.max(0, at), room);
    if (!force && used + text.length + 1 > o.chars) return false;
    shown.set(i, text);
    used += text.length + 1;
    return true;
  };
  // The first gold line shows whatever the share: windowed around the gold, to the share or a line's length.
  if (goldLines.length) take(goldLines[0] as number, Math.max(LIMITS.lineChars, Math.min(o.chars, 2 * LIMITS.lineChars)), true);
  // A success whose gold cannot be found in it is read like a failure: how it starts, where the question's words are.
  const byGold = o.success && goldLines.length > 0;
  if (!byGold) {
    const head = Math.floor(o.chars * LIMITS.failureHeadShare);
    for (let i = 0; i < lines.length && used < head; i++) if (!take(i)) break;
  }
  for (const i of ranked(lines, folded, goldLines, o)) take(i);
  if (!shown.size) take(0);

  const out: string[] = [];
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = shown.get(i);
    if (text === undefined) {
      gap++;
      continue;
    }
    if (gap) out.push(marker(gap));
    gap = 0;
    out.push(once(text));
  }
  if (gap) out.push(marker(gap));
  return { text: `${about}:\n"""\n${out.join('\n')}\n"""`, used, omitted: lines.length - shown.size };
}
