// An object keyed by data: scenario names, task, world and turn ids, metric and primitive names that come from
// someone else's file, code or reply. An ordinary object turns the key "__proto__" into its prototype (and
// `out[key] ??= {}` then writes into Object.prototype, host-wide) and answers "constructor" or "hasOwnProperty" from
// Object.prototype. One with no prototype has none of that: every key is a key like any other.

/** An empty object with no prototype, or one holding `entries`; it serialises to JSON as any object does. */
export function keyedObject<V>(entries?: Iterable<readonly [string, V]>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  if (entries) for (const [key, value] of entries) out[key] = value;
  return out;
}
