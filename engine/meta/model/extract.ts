// Pulls a JSON object out of a model's reply, which may wrap it in prose or a fence. (Programs are read by
// edit-format.ts.)
/** A JSON object from a reply that may wrap it in prose or a fence. */
export function extractJson(reply: string): unknown {
  const fenced = /```(?:json)?\n([\s\S]*?)```/.exec(reply)?.[1];
  const text = fenced ?? reply;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the reply');
  return JSON.parse(text.slice(start, end + 1));
}

/**
 * The JSON object a reply starts with (after any prose or an opening fence) and the text after it, for replies in two
 * parts (an analysis, then edits whose code holds braces of its own): the object ends at the brace that closes its
 * first one, strings read as strings; a fence closing it is not part of the rest.
 */
export function leadingJson(reply: string): { value: unknown; rest: string } {
  const start = reply.indexOf('{');
  if (start < 0) throw new Error('no JSON object in the reply');
  let depth = 0;
  let inString = false;
  for (let i = start; i < reply.length; i++) {
    const c = reply[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      const value: unknown = JSON.parse(reply.slice(start, i + 1));
      return { value, rest: reply.slice(i + 1).replace(/^[ \t]*\n?[ \t]*(?:```|~~~)[ \t]*(?=\n|$)/, '') };
    }
  }
  throw new Error('the JSON object is not closed');
}
