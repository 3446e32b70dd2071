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
