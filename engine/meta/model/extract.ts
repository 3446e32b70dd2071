// Pulls program files out of a model's reply: fenced blocks whose first line is `// file: name.ts` (or whose info
// string says file=name.ts), else the largest block that looks like a program, else the whole reply when it is
// bare code. An unclosed fence still yields its text, and then fails to compile with a clear error rather than
// vanishing here (a reply the endpoint says it cut at max_tokens is asked again before it gets here: calls.ts).
export type ExtractedFiles = Record<string, string>;

const FENCE = /```([^\n`]*)\n([\s\S]*?)(?:```|$)/g;
const FILE_LINE = /^\s*\/\/\s*file:\s*([\w./-]+\.ts)\s*$/m;

export function extractFiles(reply: string): ExtractedFiles {
  const files: ExtractedFiles = {};
  const anonymous: string[] = [];
  for (const m of reply.matchAll(FENCE)) {
    const info = m[1] ?? '';
    let body = m[2] ?? '';
    const fromInfo = /file=([\w./-]+\.ts)/.exec(info)?.[1];
    const first = body.split('\n', 1)[0] ?? '';
    const fromLine = FILE_LINE.exec(first)?.[1];
    if (fromLine) body = body.slice(first.length + 1);
    const name = fromInfo ?? fromLine;
    if (name) files[name.replace(/^\.?\//, '')] = body.trimEnd() + '\n';
    else if (/^(ts|typescript|js|javascript)?$/i.test(info.trim())) anonymous.push(body);
  }
  if (Object.keys(files).length) return files;
  const program = anonymous.filter((b) => /defineMemo|export default/.test(b)).sort((a, b) => b.length - a.length)[0];
  if (program) return { 'index.ts': program.trimEnd() + '\n' };
  if (/defineMemo/.test(reply) && /export default/.test(reply) && !reply.includes('```')) return { 'index.ts': reply.trim() + '\n' };
  return {};
}

/** A JSON object from a reply that may wrap it in prose or a fence. */
export function extractJson(reply: string): unknown {
  const fenced = /```(?:json)?\n([\s\S]*?)```/.exec(reply)?.[1];
  const text = fenced ?? reply;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the reply');
  return JSON.parse(text.slice(start, end + 1));
}
