// A child's one call, read (the agent's default): the reply's first part is every cluster's analysis and the
// proposal (a JSON object, ProgramAnalysis), its second part the edits that carry the proposal out on the program
// shown (program-reply.ts). An analysis once read is kept: a reply whose edits part is missing, malformed or does not
// match is asked once for its edits alone, told what was wrong, and a second failure ends the call. A reply whose
// first part does not parse is asked again whole (calls.ts).
import { z } from 'zod';
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import { type ProgramAnalysis, ProgramAnalysis as Schema } from './analysis.ts';
import { AskAgain, CannotUse } from './calls.ts';
import { MAX_REPLY_CHARS } from './edit-format.ts';
import { leadingJson } from './extract.ts';
import { programReply } from './program-reply.ts';

export interface ChildReply {
  analysis: ProgramAnalysis;
  files: ProgramFiles;
}

const READ = "Your reply's first part (the analysis and the proposal) was read; do not send it again.";
const ONLY_EDITS = 'Reply with only your changes to the program above, as SEARCH/REPLACE blocks in the format stated above.';

/** The first part of a reply: its analysis, and the text after it. */
function analysisOf(reply: string, cutAt: number | undefined): { analysis: ProgramAnalysis; rest: string } {
  let parsed: { value: unknown; rest: string };
  try {
    parsed = leadingJson(reply);
  } catch (err) {
    const why = cutAt ? `the reply was cut off at ${cutAt} tokens before its analysis ended; keep the analysis short` : (err as Error).message;
    throw new Error(`its first part is not a JSON object (${why})`, { cause: err });
  }
  const r = Schema.safeParse(parsed.value);
  if (!r.success) throw new Error(`its first part does not match the requested shape: ${z.prettifyError(r.error)}`);
  return { analysis: r.data, rest: parsed.rest };
}

/** A parser of a child's one-call replies against `base` (the parent's files). */
export function proposalReply(base: ProgramFiles): (reply: string, cutAt?: number) => ChildReply {
  let analysis: ProgramAnalysis | undefined;
  let editsAsked = false;
  const edits = programReply(base);
  return (reply, cutAt) => {
    if (reply.length > MAX_REPLY_CHARS) throw new Error(`the reply is longer than ${MAX_REPLY_CHARS} characters`);
    let rest = reply;
    if (!analysis) {
      const first = analysisOf(reply, cutAt);
      analysis = first.analysis;
      rest = first.rest;
    } else if (/^\s*(?:```json\s*)?\{/.test(reply)) {
      // Asked for the edits alone, the model may still start with its analysis: the edits are what counts.
      try {
        rest = leadingJson(reply).rest;
      } catch {
        // Not an analysis after all: read it as edits.
      }
    }
    try {
      return { analysis, files: edits(rest, cutAt) };
    } catch (err) {
      const message = (err as Error).message;
      if (err instanceof CannotUse) throw err;
      if (editsAsked) throw new CannotUse(`its edits part still could not be used after one correction: ${message}`);
      editsAsked = true;
      if (err instanceof AskAgain) throw new AskAgain(message, `${READ} ${err.note}`);
      throw new AskAgain(message, `${READ} Its second part, the edits, could not be used: ${message}. ${ONLY_EDITS}`);
    }
  };
}
