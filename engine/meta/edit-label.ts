// What a child changed, in a few words, for a person: its edits as a label (kind and key: "insert dedupe",
// "set hopExpand.per 2 → 3", "crossover bm25 → pipeline, then insert recencyBoost") and a group key that the
// children of one parent trying the same idea share (one crossover with different tails, one setting moved to
// different values), so eight tails on one crossover read as one idea tried eight times. The viewer's tree and
// programs table and the CLI's step lines read edits through this file only.
import type { Edit } from './types.ts';

export interface EditLabel {
  /** The first edit's kind (insert, remove, swap, crossover, route, store, set), or 'rewrite' without edits. */
  kind: string;
  /** What it acts on: a stage, a setting, a design. */
  key: string;
  /** The whole change in a few words. */
  label: string;
  /** Siblings with the same group tried the same idea. */
  group: string;
  /** The shared idea in words (what a mark over the group says). */
  groupLabel: string;
  /** What this child tried within its group: the tail after a shared crossover, or the value a setting was set to. */
  tail: string;
}

/** Labels stay short: a value longer than this is cut (the panel shows the edit whole). */
const VALUE_CHARS = 28;
const PROSE_CHARS = 48;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const value = (v: number | boolean | string) => clip(typeof v === 'string' ? v : JSON.stringify(v), VALUE_CHARS);
/** A stage call's name: `dedupe({ similarity: 0.9 })` → `dedupe`. */
const callName = (v: number | boolean | string) =>
  typeof v === 'string' ? (/^\s*([\w$]+)\s*\(/.exec(v)?.[1] ?? value(v)) : value(v);

interface KindAndKey {
  kind: string;
  key: string;
  /** Kind and key in words ("insert dedupe"). */
  words: string;
  /** The value it was given, in words ("2 → 3"), when the words do not say it already. */
  to: string;
}

/** One edit's kind and key, in words; the typed edit says them outright (EDIT_KINDS in types.ts). */
export function kindAndKey(e: Edit): KindAndKey {
  const k = e.key;
  const moved = `${value(e.from)} → ${value(e.to)}`;
  switch (e.kind) {
    case 'design-into-pipeline':
      return { kind: 'crossover', key: `design:${k}`, words: `crossover ${k} → ${value(e.to)}`, to: '' };
    case 'crossover-design':
      return {
        kind: 'crossover',
        key: `design:${k}`,
        words: `crossover: units as ${k} finds them${e.donor ? ` (from ${e.donor})` : ''}`,
        to: '',
      };
    case 'crossover-stage':
      return { kind: 'crossover', key: k, words: `crossover: take ${k}${e.donor ? ` from ${e.donor}` : ''}`, to: '' };
    case 'stage-insert':
      return { kind: 'insert', key: k, words: `insert ${k}`, to: '' };
    case 'stage-remove':
      return { kind: 'remove', key: k, words: `remove ${k}`, to: '' };
    case 'stage-swap':
      return { kind: 'swap', key: `fuse:${k}`, words: `fuse with ${k}`, to: '' };
    case 'route':
      return { kind: 'route', key: k, words: `route ${k} tasks to ${callName(e.to)}`, to: '' };
    case 'store':
      return { kind: 'store', key: k, words: `store ${k}`, to: moved };
    case 'initial-design':
      return { kind: 'design', key: k, words: `design ${k}${e.to !== k ? ` as ${value(e.to)}` : ''}`, to: '' };
    case 'model':
      return {
        kind: 'rewrite',
        key: k,
        words: clip(
          String(e.to)
            .split(/[.;:(\n]/)[0]
            ?.trim() || 'rewrite',
          PROSE_CHARS,
        ),
        to: '',
      };
    case 'stage-tune':
    case 'config':
      return { kind: 'set', key: k, words: `set ${k}`, to: moved };
  }
}

const spelled = (k: KindAndKey) => (k.to ? `${k.words} ${k.to}` : k.words);

/**
 * A child's edits as its label and group. `description` stands in where a child has no edits (a model's rewrite):
 * its first clause, short, and a group of its own.
 */
export function editLabel(edits: readonly Edit[] | undefined, description?: string, id = ''): EditLabel {
  // A model's rewrite is one edit of kind 'model': its own group, labelled from its description.
  const parts = (edits ?? []).filter((e) => e.kind !== 'model').map(kindAndKey);
  const first = parts[0];
  if (!first) {
    const prose = description ?? String(edits?.find((e) => e.kind === 'model')?.to ?? '');
    const words = clip(prose.split(/[.;:(\n]/)[0]?.trim() || 'rewrite', PROSE_CHARS);
    return { kind: 'rewrite', key: '', label: words, group: `rewrite:${id}`, groupLabel: words, tail: words };
  }
  // A crossover of a whole design into a pipeline, then a tail: the crossover is the idea, the tail what varies.
  if (first.kind === 'crossover' && first.key.startsWith('design:')) {
    const rest = parts.slice(1);
    const tail = rest.length ? rest.map(spelled).join(', ') : 'the crossover alone';
    return {
      kind: first.kind,
      key: first.key,
      label: rest.length ? `${first.words}, then ${rest.map((k) => k.words).join(', ')}` : first.words,
      group: `crossover:${first.key}`,
      groupLabel: first.words,
      tail,
    };
  }
  // Otherwise the edits' kinds and keys are the idea, and the values they were given what varies.
  const group = parts.map((k) => `${k.kind}:${k.key}`).join('+');
  const groupLabel = parts.map((k) => k.words).join(', ');
  const tail = parts.map((k) => k.to || k.words).join(', ');
  return { kind: first.kind, key: first.key, label: parts.map(spelled).join(', '), group, groupLabel, tail };
}

/**
 * The part of `description` that differs from the closest of `others` (the parent's, the earlier siblings'): from
 * the word where they part, marked with a leading "…", clipped to `max` characters. A description that shares less
 * than a few words with every other is given from its start.
 */
export function differingPart(description: string, others: readonly string[], max = 120): string {
  let shared = 0;
  for (const o of others) {
    let i = 0;
    const n = Math.min(o.length, description.length);
    while (i < n && o[i] === description[i]) i++;
    shared = Math.max(shared, i);
  }
  // Back to the start of the word where they part (none when they part between words).
  const midWord = (i: number) =>
    i > 0 && i < description.length && /\w/.test(description[i - 1] as string) && /\w/.test(description[i] as string);
  while (midWord(shared)) shared--;
  // And to the start of the clause it is in, when that is near: "then insert: insert graphExpand(…)", not "graphExpand(…)".
  const clause = Math.max(description.lastIndexOf(', ', shared - 1), description.lastIndexOf('; ', shared - 1));
  if (clause >= 0 && shared - clause <= 40) shared = clause + 2;
  const from = shared >= 24 ? shared : 0;
  const rest = description
    .slice(from)
    .replace(/^[\s,;:]+/, '')
    .trimEnd();
  return clip(from ? `…${rest}` : rest, max);
}
