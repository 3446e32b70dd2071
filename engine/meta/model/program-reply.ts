// A program out of a model's reply: its edits (search/replace blocks, or files whole) applied to the program the
// request showed. Edits whose SEARCH lines match nowhere or several times are named back to the model once, each
// with the file's lines nearest to it, while the others stay applied; the answer to that is applied on top of them
// (or, when it is a whole new answer, to the program as shown). Still unmatched after that, the call fails.
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import { type Applied, applyEdits, type EditFailure } from './apply-edits.ts';
import { AskAgain, CannotUse } from './calls.ts';
import { parseEdits } from './edit-format.ts';

/** Failures named in full in a note; the rest by number. */
const NOTE_FAILURES = 8;

function describe(f: EditFailure): string {
  const near = f.nearest
    ? ` The lines of ${f.file} nearest to it (lines ${f.nearest.from}–${f.nearest.to}):\n\`\`\`ts\n${f.nearest.lines.join('\n')}\n\`\`\``
    : '';
  return `- edit ${f.index} (${f.file}): ${f.problem}.${near}`;
}

function failuresText(failures: EditFailure[]): string {
  const shown = failures.slice(0, NOTE_FAILURES).map(describe);
  const more =
    failures.length > NOTE_FAILURES
      ? [
          `- and edits ${failures
            .slice(NOTE_FAILURES)
            .map((f) => f.index)
            .join(', ')}, for the same kind of reason.`,
        ]
      : [];
  return [...shown, ...more].join('\n');
}

function finished(got: Applied): ProgramFiles {
  if (!Object.hasOwn(got.files, 'index.ts')) throw new Error('the program has no index.ts (the entry file)');
  return got.files;
}

/** A parser of program replies against `base`, keeping what applied between the model's first answer and its correction. */
export function programReply(base: ProgramFiles): (reply: string, cutAt?: number) => ProgramFiles {
  let partial: ProgramFiles | undefined;
  return (reply, cutAt) => {
    if (cutAt)
      throw new Error(
        `the reply was cut off at ${cutAt} tokens before it ended; send only your edits as SEARCH/REPLACE blocks, without long comments`,
      );
    const edits = parseEdits(reply);
    if (!edits.length)
      throw new Error(
        'no edits in the reply: write SEARCH/REPLACE blocks, each after a `// file: <name>.ts` line, as shown above',
      );
    if (partial) {
      const onTop = applyEdits(partial, edits);
      if (!onTop.failures.length) return finished(onTop);
      const anew = applyEdits(base, edits);
      if (!anew.failures.length) return finished(anew);
      throw new CannotUse(`after one correction, edits still do not match:\n${failuresText(onTop.failures)}`);
    }
    const got = applyEdits(base, edits);
    if (!got.failures.length) return finished(got);
    partial = got.files;
    const n = got.failures.length;
    throw new AskAgain(
      `${n} of ${edits.length} edits did not match`,
      `Of the ${edits.length} edits in your previous reply, ${got.applied} applied; ${n === 1 ? 'this one' : `these ${n}`} did not:\n${failuresText(got.failures)}\n` +
        `Reply with ${n === 1 ? 'a corrected version of only this edit' : 'corrected versions of only these edits'}: SEARCH lines copied exactly from the file as it stands (the edits that applied stay applied).`,
    );
  };
}
