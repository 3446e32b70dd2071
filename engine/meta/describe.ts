// Typed facts of the tree in words, for a model's prompt or a person (the viewer, the CLI): the only place they
// become prose. Nothing reads these strings back.
import type { ChildFailure } from './types.ts';

/** Why a child stopped before evaluation: the same words whether the search ran on or was resumed. */
export function describeFailure(f: ChildFailure): string {
  if (f.check === 'no-op') return `changed nothing: ${f.detail}`;
  if (f.check === 'meta-agent') return f.detail;
  return `quick examination (${f.check}): ${f.detail}`;
}
