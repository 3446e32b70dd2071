// Plain renderings of the tree and the data for the meta prompts: what was tried from this parent, the best programs
// elsewhere, one real update episode (clipped), and what the memory is built from.
import type { EpisodeRecorder, Json } from '../../../memo-programs/contract.ts';
import type { Inspiration, TriedChild } from '../types.ts';

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

export function renderTried(tried: TriedChild[], parentScore: number): string {
  if (!tried.length) return '';
  const lines = tried.map((t) =>
    t.failed
      ? `- ${t.node}: failed before evaluation: ${t.failed}`
      : `- ${t.node}: ${t.change}${t.delta !== undefined ? ` → ${signed(t.delta)} against this program on the same tasks (this program: ${parentScore.toFixed(3)})` : ' (not evaluated yet)'}`,
  );
  return `\nAlready tried from this program (take a different direction from each; do not write any of them again):\n${lines.join('\n')}\n`;
}

export function renderInspirations(list: Inspiration[]): string {
  if (!list.length) return '';
  const lines = list.map((x) => `- ${x.node} (mean validation ${x.q.toFixed(3)} over ${x.evaluations} evaluations): ${x.change}`);
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
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((v) => clipJson(v, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more items`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipJson(v, depth + 1)]));
}

export function renderEpisode(episode: EpisodeRecorder): string {
  return JSON.stringify(clipJson(episode as unknown as Json), null, 1);
}
