// The search/replace edits that turn one program into another: what a prompt shows of a child whose parent it
// already holds, and what the recorded-session bench counts as the edits a recorded whole-file reply stands for.
// Each region of changed lines becomes one block with a line of context on either side (as a model writing these
// blocks would copy), grown until its SEARCH lines appear exactly once where it is applied; a new file is a block
// with an empty SEARCH, and a file whose blocks would be longer than it is given whole. Applying the edits to `from`
// gives `to` exactly (a test holds this).
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import { lineMatches, replaceOnce } from './apply-edits.ts';
import { type FileEdit, renderEdits } from './edit-format.ts';
import { type Change, diffLines } from './line-diff.ts';

/** Unchanged lines kept on each side of a change; changes closer than twice this are one block. */
const CONTEXT = 1;
/** A block is grown at most this far on each side to make it unique; beyond, the file is given whole. */
const MAX_GROW = 50;

const entryFirst = (a: string, b: string) => (a === 'index.ts' ? -1 : b === 'index.ts' ? 1 : a.localeCompare(b));

/** Changes closer than 2 × CONTEXT unchanged lines joined into one. */
function merged(changes: Change[]): Change[] {
  const out: Change[] = [];
  for (const c of changes) {
    const last = out.at(-1);
    if (last && c.a - last.aEnd <= 2 * CONTEXT)
      out[out.length - 1] = { a: last.a, aEnd: c.aEnd, b: last.b, bEnd: c.bEnd };
    else out.push({ ...c });
  }
  return out;
}

/** One file's blocks, or undefined when some change cannot be made unique (then the file is given whole). */
function fileBlocks(file: string, from: string, to: string): FileEdit[] | undefined {
  // A file's last line break makes a last empty "line"; it is never context, so blocks show only real lines.
  const a = from.split('\n');
  const b = to.split('\n');
  const realA = a.length - (from.endsWith('\n') ? 1 : 0);
  const out: FileEdit[] = [];
  let text = from;
  for (const c of merged(diffLines(a, b))) {
    let before = Math.min(CONTEXT, c.a);
    let after = Math.min(CONTEXT, Math.max(0, realA - c.aEnd));
    for (;;) {
      const search = a.slice(c.a - before, c.aEnd + after);
      // The block's place in the text as the blocks before it left it: it must be the only one.
      const at = search.length ? lineMatches(text, search.join('\n'), 2) : [];
      if (at.length === 1 && search.some((l) => l.trim())) {
        const replace = [...a.slice(c.a - before, c.a), ...b.slice(c.b, c.bEnd), ...a.slice(c.aEnd, c.aEnd + after)];
        out.push({ kind: 'replace', file, search, replace });
        const r = replaceOnce(text, search, replace);
        if (!('text' in r)) return undefined;
        text = r.text;
        break;
      }
      const canBefore = c.a - before > 0 && before < MAX_GROW;
      const canAfter = c.aEnd + after < realA && after < MAX_GROW;
      if (!canBefore && !canAfter) return undefined;
      if (canBefore && (before <= after || !canAfter)) before++;
      else after++;
    }
  }
  return text === to ? out : undefined;
}

/** The edits that turn program `from` into `to` (a file only `from` has is left out: edits do not delete files). */
export function editsBetween(from: ProgramFiles, to: ProgramFiles): FileEdit[] {
  const out: FileEdit[] = [];
  for (const file of Object.keys(to).sort(entryFirst)) {
    const next = to[file] as string;
    const prev = Object.hasOwn(from, file) ? from[file] : undefined;
    if (prev === next) continue;
    if (prev === undefined) {
      // A new file is a block with an empty SEARCH (which writes a last line break); one without is given whole.
      out.push(
        next.endsWith('\n') && next.length > 1
          ? { kind: 'replace', file, search: [], replace: next.slice(0, -1).split('\n') }
          : { kind: 'whole', file, text: next },
      );
      continue;
    }
    // A file mostly rewritten is shorter given whole (and a model would give it so).
    const whole: FileEdit = { kind: 'whole', file, text: next };
    const blocks = fileBlocks(file, prev, next);
    out.push(...(blocks && renderEdits(blocks).length <= renderEdits([whole]).length ? blocks : [whole]));
  }
  return out;
}
