// A strict zod object names a key it does not know as 'Unrecognized key: "task"'; a person who typed `task:` for
// `tasks:` wants to read that the key is unknown and which one was meant. Also for plain objects checked by hand.
import type { z } from 'zod';
import { didYouMean } from './closest.ts';

type Walkable = { shape?: Record<string, unknown>; element?: unknown; unwrap?: () => unknown };

/** The keys the object schema at `path` inside `schema` knows (through arrays, optionals, defaults), if it is one. */
export function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  let at = schema as Walkable | undefined;
  const unwrap = () => {
    for (let i = 0; i < 10 && at && !at.shape && !at.element && typeof at.unwrap === 'function'; i++) at = at.unwrap() as Walkable;
  };
  for (const seg of path) {
    unwrap();
    if (!at) return undefined;
    at = (typeof seg === 'number' ? at.element : at.shape?.[String(seg)]) as Walkable | undefined;
  }
  unwrap();
  return at?.shape ? Object.keys(at.shape) : undefined;
}

/** 'unknown key "task" (did you mean "tasks"?)', for each key an object holds that `known` does not. */
export function unknownKeys(keys: readonly string[], known: readonly string[]): string[] {
  return keys.filter((k) => !known.includes(k)).map((k) => `unknown key ${JSON.stringify(k.slice(0, 100))}${didYouMean(k, known)}`);
}

/** A zod issue in words; an unrecognised key says it is unknown, and the key meant when one is near. */
export function issueText(issue: z.core.$ZodIssue, schema: unknown): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `is missing (${issue.expected})`;
  if (issue.code !== 'unrecognized_keys') return issue.message;
  return unknownKeys(issue.keys, knownKeysAt(schema, issue.path) ?? []).join('; ');
}
