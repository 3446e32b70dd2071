// What the offline agent edits when a node is a standard design: its exact form (memo-programs/registry.ts
// DESIGN_FORMS). A design that has a pipeline form (bm25, dense, trajectory retrieval, ReasoningBank, G-Memory) is
// edited as that pipeline, which gives the design's payloads task by task (test/memo-programs/forms.test.ts), so a
// child starts from the design itself and not from a weaker copy; Omni-SimpleMem is edited through its exported
// config. The form stands in for a node only when the node's files are the design's own (a seed): a program that
// descends from a design but was rewritten is edited as it is.
import { readProgramFiles, sourceHash } from '../../../memo-programs/files.ts';
import { formOf, resolveProgram } from '../../../memo-programs/registry.ts';
import type { ProgramFiles } from '../types.ts';

export interface ExactForm {
  design: string;
  /** The pipeline to edit in the design's place. */
  files: ProgramFiles;
}

const cache = new Map<string, { own: string; form: ProgramFiles } | null>();

function known(design: string): { own: string; form: ProgramFiles } | null {
  if (!cache.has(design)) {
    const form = formOf(design);
    if (!form || form.edit !== 'pipeline') cache.set(design, null);
    else cache.set(design, { own: sourceHash(readProgramFiles(resolveProgram(design).path)), form: readProgramFiles(form.path) });
  }
  return cache.get(design) ?? null;
}

/**
 * The exact pipeline form to edit in place of `files`, when they are the standard design `design` itself and it has
 * one; undefined otherwise (a pipeline already, a design edited through its config, a rewritten program).
 */
export function exactFormOf(design: string | undefined, files: ProgramFiles): ExactForm | undefined {
  if (design === undefined || design === 'pipeline') return undefined;
  const k = known(design);
  if (!k || sourceHash(files) !== k.own) return undefined;
  return { design, files: k.form };
}
