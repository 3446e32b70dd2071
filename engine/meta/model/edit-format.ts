// The form in which a model writes changes to a program, and in which the prompts show a child's changes: search/
// replace blocks (Aider's edit format), each naming its file:
//
//   // file: index.ts
//   <<<<<<< SEARCH
//   lines copied exactly from the file
//   =======
//   the lines that take their place
//   >>>>>>> REPLACE
//
// An empty SEARCH creates a new file. The old form is still read: a fenced ```ts block whose first line is
// `// file: <name>.ts` is that file whole (and, from a reply with no named file at all, the largest fenced program,
// or a bare program, is index.ts). Fences around blocks are ignored; a block's own lines are kept as written. The
// reply is model output: it is bounded before it is scanned, and every file it names must be a plain relative `.ts`
// path (never `..`, never absolute), so no edit can reach outside the program's folder.
import { z } from 'zod';
import { isSafeRelPath } from '../../../foundation/safe-path.ts';

/** One change: lines replaced inside a file (`search` empty: a new file), or a file given whole. */
export type FileEdit =
  | { kind: 'replace'; file: string; search: string[]; replace: string[] }
  | { kind: 'whole'; file: string; text: string };

/** A reply longer than this is not a program's edits (max_tokens keeps real ones far below). */
export const MAX_REPLY_CHARS = 1_000_000;
export const MAX_EDITS = 200;
export const MAX_FILES = 32;

/** What a reply's edits must be, checked once they are read. */
const FileName = z
  .string()
  .max(200)
  .refine(
    (n) => n.endsWith('.ts') && isSafeRelPath(n),
    'file names must be plain relative paths ending in .ts (letters, digits, ".", "_", "-")',
  );
const Lines = z.array(z.string()).max(100_000);
const EditsSchema = z
  .array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('replace'), file: FileName, search: Lines, replace: Lines }),
      z.object({ kind: z.literal('whole'), file: FileName, text: z.string() }),
    ]),
  )
  .max(MAX_EDITS, `more than ${MAX_EDITS} edits in one reply`)
  .refine((edits) => new Set(edits.map((e) => e.file)).size <= MAX_FILES, `more than ${MAX_FILES} files in one reply`);

const START = /^\s*<{5,9}\s*SEARCH\s*$/i;
const SEP = /^\s*={5,9}\s*$/;
const END = /^\s*>{5,9}\s*REPLACE\s*$/i;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const FILE_LINE = /^\s*(?:\/\/|#)?\s*file:\s*`?([^\s`]+)`?\s*$/i;
/** A file's name alone on a line (Aider writes it before the fence): `index.ts`, **index.ts**, index.ts: */
const BARE_NAME = /^\s*(?:#+\s*)?[`*]*([\w.-]+(?:\/[\w.-]+)*\.ts)[`*]*:?\s*$/;
const PROGRAM = /defineMemo|export default/;

export class EditFormatError extends Error {
  override name = 'EditFormatError';
}

function fileName(raw: string): string {
  const name = raw.replace(/^\.\//, '');
  if (!name.endsWith('.ts') || !isSafeRelPath(name))
    throw new EditFormatError(
      `file names must be plain relative paths ending in .ts (letters, digits, ".", "_", "-"); not ${JSON.stringify(raw.slice(0, 100))}`,
    );
  return name;
}

interface Fence {
  marker: string;
  name?: string;
  body: string[];
  /** Holds search/replace blocks (then it is not a whole file). */
  wrapper: boolean;
  /** Its info string says TypeScript or JavaScript, or nothing. */
  code: boolean;
}

const nameOn = (line: string) => (FILE_LINE.exec(line) ?? BARE_NAME.exec(line))?.[1];

/** The edits a reply asks for, in the order written. Throws EditFormatError saying what is wrong. */
export function parseEdits(reply: string): FileEdit[] {
  if (reply.length > MAX_REPLY_CHARS)
    throw new EditFormatError(`the reply is ${reply.length} characters, more than ${MAX_REPLY_CHARS}`);
  const lines = reply.replace(/\r\n?/g, '\n').split('\n');
  const edits: FileEdit[] = [];
  const anonymous: string[] = [];
  let file: string | undefined;
  let fence: Fence | undefined;
  let block: { file: string; search: string[]; replace?: string[]; line: number } | undefined;
  const push = (e: FileEdit) => {
    if (edits.length >= MAX_EDITS) throw new EditFormatError(`more than ${MAX_EDITS} edits in one reply`);
    edits.push(e);
  };
  const closeFence = (f: Fence) => {
    if (f.wrapper) return;
    const text = f.body.join('\n');
    if (f.name && text.trim()) push({ kind: 'whole', file: f.name, text: `${text}\n` });
    else if (!f.name && f.code) anonymous.push(text);
  };
  for (const [i, line] of lines.entries()) {
    if (block) {
      if (block.replace === undefined) {
        if (SEP.test(line)) block.replace = [];
        else if (START.test(line) || END.test(line))
          throw new EditFormatError(
            `the edit at line ${block.line} of the reply has no ======= line between its SEARCH and REPLACE parts`,
          );
        else block.search.push(line);
      } else if (END.test(line)) {
        push({ kind: 'replace', file: block.file, search: block.search, replace: block.replace });
        block = undefined;
      } else if (START.test(line))
        throw new EditFormatError(
          `the edit at line ${block.line} of the reply does not end with >>>>>>> REPLACE before the next <<<<<<< SEARCH`,
        );
      else block.replace.push(line);
      continue;
    }
    if (START.test(line)) {
      if (!file)
        throw new EditFormatError(
          `the edit at line ${i + 1} of the reply names no file: put \`// file: <name>.ts\` on the line before <<<<<<< SEARCH`,
        );
      if (fence) fence.wrapper = true;
      block = { file, search: [], line: i + 1 };
      continue;
    }
    const f = FENCE.exec(line);
    if (fence) {
      const closes =
        f && f[1]?.[0] === fence.marker[0] && (f[1]?.length ?? 0) >= fence.marker.length && !(f[2] ?? '').trim();
      const named = (fence.wrapper || (!fence.body.length && !fence.name)) && nameOn(line);
      if (closes) {
        closeFence(fence);
        fence = undefined;
      } else if (named) {
        file = fileName(named);
        if (!fence.wrapper) fence.name = file;
      } else fence.body.push(line);
      continue;
    }
    if (f) {
      const info = (f[2] ?? '').trim();
      const named = /file=(\S+)/.exec(info)?.[1];
      fence = {
        marker: f[1] ?? '```',
        body: [],
        wrapper: false,
        code: /^(ts|typescript|js|javascript)?$/i.test(info),
        ...(named ? { name: fileName(named) } : {}),
      };
      if (fence.name) file = fence.name;
      continue;
    }
    const named = nameOn(line);
    if (named) file = fileName(named);
  }
  if (block)
    throw new EditFormatError(
      `the edit at line ${block.line} of the reply is not closed with >>>>>>> REPLACE (was the reply cut off?)`,
    );
  if (fence) closeFence(fence);
  if (!edits.length) {
    // The old form without a file line: the largest fenced program, or a bare one, is index.ts.
    const program = anonymous.filter((b) => PROGRAM.test(b)).sort((a, b) => b.length - a.length)[0];
    if (program !== undefined) push({ kind: 'whole', file: 'index.ts', text: `${program.trimEnd()}\n` });
    else if (/defineMemo/.test(reply) && /export default/.test(reply) && !reply.includes('```'))
      push({ kind: 'whole', file: 'index.ts', text: `${reply.trim()}\n` });
  }
  const checked = EditsSchema.safeParse(edits);
  if (!checked.success) throw new EditFormatError(z.prettifyError(checked.error));
  return edits;
}

/** Edits written exactly as the prompts ask the model to write them (parseEdits reads them back unchanged). */
export function renderEdits(edits: readonly FileEdit[]): string {
  return edits
    .map((e) =>
      e.kind === 'whole'
        ? `\`\`\`ts\n// file: ${e.file}\n${e.text.replace(/\n$/, '')}\n\`\`\``
        : [`// file: ${e.file}`, '<<<<<<< SEARCH', ...e.search, '=======', ...e.replace, '>>>>>>> REPLACE'].join('\n'),
    )
    .join('\n\n');
}
