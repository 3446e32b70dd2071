// A recorded whole-file program reply as today's format would have it: the search/replace edits that give the very
// same files against the program its request showed (for a repair, the child: the parent as the shown edits left
// it), with the reply's prose kept. The children stay the recorded run's; only the form of the reply changes.
import { applyEdits } from '../../engine/meta/model/apply-edits.ts';
import { parseEdits, renderEdits } from '../../engine/meta/model/edit-format.ts';
import { editsBetween } from '../../engine/meta/model/edits-between.ts';
import type { ProgramFiles } from '../../memo-programs/files.ts';
import type { Purpose } from './recorded-session.ts';

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

/** The program a generation or repair request asks the model to change: the parent, or the child its edits make. */
export function programShown(request: string, purpose: Purpose): ProgramFiles {
  const parent = wholeFiles(between(request, 'file by file:\n', ['\n\nEvidence from the program', '\n\nTask:']) ?? '');
  if (purpose !== 'repair') return parent;
  const edits = between(request, 'The child is the program above with these edits:\n', ['\n\nFailure:\n']) ?? '';
  return edits.startsWith('(none') ? parent : applyEdits(parent, parseEdits(edits)).files;
}

/** A recorded whole-file program reply as the edits that give the same files against what the request showed. */
export function asEdits(reply: string, purpose: Purpose, request: string): string {
  if (purpose !== 'generation' && purpose !== 'repair') return reply;
  const base = programShown(request, purpose);
  const target = applyEdits(base, parseEdits(reply)).files;
  const prose = reply.replace(/```[^\n]*\n[\s\S]*?(?:```|$)/g, '').trim();
  return `${prose ? `${prose}\n\n` : ''}${renderEdits(editsBetween(base, target))}`;
}
