// Plain renderings of the tree and the data for the meta prompts: what was tried from this parent (each child as its
// edits, and what steps in flight are writing from it), the best programs elsewhere, one real update episode
// (clipped), and what the memory is built from.
import type { EpisodeRecorder, Json } from '../../../memo-programs/contract.ts';
import { describeFailure } from '../describe.ts';
import type { Inspiration, ProgramFiles, TriedChild } from '../types.ts';
import { renderEdits } from './edit-format.ts';
import { editsBetween } from './edits-between.ts';
import type { InFlight } from './siblings.ts';

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** Characters of one tried child's edits a prompt shows at most, and of all of them. */
export const EDITS_CHARS = 32_000;
export const ALL_EDITS_CHARS = 64_000;

/** What a tried child changed, in words: the one place a prompt reads it. */
export function changeOf(t: TriedChild): string {
  return t.description ?? '(no description)';
}

/** The tried children whose edits against `parent` fit the prompt, better ones first, each rendered. */
function shownEdits(tried: TriedChild[], parent: ProgramFiles): Map<string, string> {
  const out = new Map<string, string>();
  let left = ALL_EDITS_CHARS;
  const order = [...tried].sort((a, b) => Number((b.delta ?? 0) > 0) - Number((a.delta ?? 0) > 0));
  for (const t of order) {
    if (t.failure || !t.files) continue;
    const text = renderEdits(editsBetween(parent, t.files));
    if (text.length > EDITS_CHARS || text.length > left) continue;
    out.set(t.node, text || '(none: it is the program above)');
    left -= text.length;
  }
  return out;
}

function triedLine(t: TriedChild, parentScore: number, edits: string | undefined): string {
  if (t.failure)
    return `- ${t.node}: ${t.description ? `${t.description} — ` : ''}failed before evaluation: ${describeFailure(t.failure)}`;
  const change = changeOf(t);
  const score =
    t.delta !== undefined
      ? ` → ${signed(t.delta)} against this program on the same tasks (this program: ${parentScore.toFixed(3)})${t.delta > 0 ? ', better' : ''}`
      : ' (not evaluated yet)';
  return edits !== undefined
    ? `- ${t.node}: ${change}${score}. Its edits to the program above:\n${edits}`
    : `- ${t.node}: ${change}${score} (its code is not shown)`;
}

const names = (list: string[]) =>
  list.length === 1 ? (list[0] as string) : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;

/**
 * What was already tried from this program: the tree's children (change and paired score delta, or why they
 * failed), each shown as its edits to the program (when they fit), the directions steps in flight are writing from
 * it now, and how many of those have not chosen yet. A child that beat the program may be built on — only one whose
 * edits are shown: a prompt never asks to extend code it does not hold.
 */
export function renderTried(
  tried: TriedChild[],
  parent: ProgramFiles,
  parentScore: number,
  inFlight: InFlight = { decided: [], undecided: 0 },
): string {
  const inTree = new Set(tried.flatMap((t) => (t.step === undefined ? [] : [t.step])));
  const now = inFlight.decided.filter((w) => !inTree.has(w.step));
  if (!tried.length && !now.length && !inFlight.undecided) return '';
  const edits = shownEdits(tried, parent);
  const better = tried.filter((t) => !t.failure && (t.delta ?? 0) > 0 && edits.has(t.node)).map((t) => t.node);
  const lines = [
    ...tried.map((t) => triedLine(t, parentScore, edits.get(t.node))),
    ...now.map((w) => `- step ${w.step} (being written now by a step in flight, not evaluated yet): ${w.direction}`),
  ];
  const rule = better.length
    ? `Do not write any of them again. ${names(better)} scored better than this program and may be built on: extend ${better.length === 1 ? 'its' : "one's"} direction with a change of your own (your edits apply to the program above, so keep those of its edits you build on), or diverge from it; say which in your summary. Take a different direction from each of the others.`
    : 'Take a different direction from each; do not write any of them again.';
  const undecided = inFlight.undecided
    ? `${inFlight.undecided === 1 ? 'Another step in flight is' : `${inFlight.undecided} other steps in flight are`} writing a child of this program at the same time and has not chosen its direction yet. So that the children differ, carry out the direction you rank ${ordinal(inFlight.undecided + 1)} most promising (the steps before you take those ranked above it), and say so in your summary.\n`
    : '';
  return `\n${lines.length ? `Already tried from this program:\n${lines.join('\n')}\n${rule}\n` : ''}${undecided}`;
}

export function renderInspirations(list: Inspiration[]): string {
  if (!list.length) return '';
  const lines = list.map(
    (x) => `- ${x.node} (mean validation ${x.q.toFixed(3)} over ${x.evaluations} evaluations): ${x.description}`,
  );
  return `\nThe best programs elsewhere in the search, for ideas (their code is not shown):\n${lines.join('\n')}\n`;
}

export function renderUpdateEpisodes(counts: { scenario: string; success: number; failure: number }[]): string {
  if (!counts.length) return '';
  const total = counts.reduce((s, c) => s + c.success + c.failure, 0);
  return `The memory is built from ${total} update episodes; per scenario: ${counts.map((c) => `${c.scenario} ${c.success} succeeded, ${c.failure} failed`).join('; ')}.`;
}

const MAX_STRING = 300;
const MAX_ITEMS = 6;
const MAX_DEPTH = 6;

/** A JSON value with long strings and arrays clipped, saying how much was left out. */
export function clipJson(value: Json, depth = 0): Json {
  if (typeof value === 'string')
    return value.length > MAX_STRING
      ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]`
      : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((v) => clipJson(v, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more items`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipJson(v, depth + 1)]));
}

/** One episode as compact JSON (indentation would repeat on every line of every prompt of the run). */
export function renderEpisode(episode: EpisodeRecorder): string {
  return JSON.stringify(clipJson(episode as unknown as Json));
}
