// A recorded whole-file program reply as today's format would have it: the search/replace edits that give the very
// same files against the program its request showed (for a repair, the child: the parent as the shown edits left
// it), with the reply's prose kept. The children stay the recorded run's; only the form of the reply changes. A
// repair whose request shows the child's edits but not the parent (the failure is local) is read against the parent
// the request writing that child showed, remembered by its node.
import { applyEdits } from '../../engine/meta/model/apply-edits.ts';
import { parseEdits, renderEdits } from '../../engine/meta/model/edit-format.ts';
import { editsBetween } from '../../engine/meta/model/edits-between.ts';
import type { ProgramFiles } from '../../memo-programs/files.ts';
import { type Purpose, type ReplyForm, subjectOf } from './recorded-session.ts';

/** The text between `start` and the first of `ends` after it. */
function between(text: string, start: string, ends: string[]): string | undefined {
  const at = text.indexOf(start);
  if (at < 0) return undefined;
  const from = at + start.length;
  const to = Math.min(...ends.map((e) => text.indexOf(e, from)).filter((i) => i >= 0), text.length);
  return text.slice(from, to);
}

/** The files a section of a request shows whole. */
function wholeFiles(section: string): ProgramFiles {
  const out: ProgramFiles = {};
  for (const e of parseEdits(section)) if (e.kind === 'whole') out[e.file] = e.text;
  return out;
}

/** The parent a request shows whole, if it does. */
function parentShown(request: string): ProgramFiles | undefined {
  const section = between(request, 'file by file:\n', ['\n\nEvidence from the program', '\n\nTask:']);
  return section === undefined ? undefined : wholeFiles(section);
}

/**
 * The program a generation, proposal or repair request asks the model to change: the parent, or the child its edits
 * make (of `parent` when the request does not show it).
 */
export function programShown(request: string, purpose: Purpose, parent?: ProgramFiles): ProgramFiles {
  const base = parentShown(request) ?? parent;
  if (!base) throw new Error('the request shows no program, and none is remembered for its node');
  if (purpose !== 'repair') return base;
  const edits = between(request, 'with these edits:\n', ['\n\nFailure:\n']) ?? '';
  return edits.startsWith('(none') ? base : applyEdits(base, parseEdits(edits)).files;
}

/**
 * A reply form turning recorded whole-file replies of the given purposes into edits, remembering the parent every
 * program request showed, by node.
 */
export function recordedEdits(convert: readonly Purpose[] = ['generation', 'repair']): ReplyForm {
  const parents = new Map<string, ProgramFiles>();
  return (reply, purpose, request) => {
    if (purpose !== 'generation' && purpose !== 'repair') return reply;
    const node = subjectOf({ messages: [{ content: request }] }).node;
    const shown = parentShown(request);
    if (shown && node) parents.set(node, shown);
    if (!convert.includes(purpose)) return reply;
    const base = programShown(request, purpose, node ? parents.get(node) : undefined);
    const target = applyEdits(base, parseEdits(reply)).files;
    const prose = reply.replace(/```[^\n]*\n[\s\S]*?(?:```|$)/g, '').trim();
    return `${prose ? `${prose}\n\n` : ''}${renderEdits(editsBetween(base, target))}`;
  };
}
