// Summaries shown to the meta model are cut at sentence ends, never mid-word: "replace the blind ±1 neighbour
// expansi" tells the model less than the sentence it came from, and reads as a different instruction.

/** Sentences end at ., ! or ? followed by white space or the text's end (so "0.5" does not end one). */
function sentences(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest) {
    const m = /^[\s\S]*?[.!?](?=\s|$)/.exec(rest);
    const s = (m ? m[0] : rest).trim();
    if (s) out.push(s);
    rest = m ? rest.slice(m[0].length) : '';
  }
  return out;
}

/**
 * The text's whole sentences that fit in `maxChars` (white space folded). A first sentence longer than that is
 * kept whole up to twice the limit; beyond it, it is cut at a word boundary and ends with "…".
 */
export function wholeSentences(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  const kept: string[] = [];
  let used = 0;
  for (const s of sentences(flat)) {
    const cost = s.length + (kept.length ? 1 : 0);
    if (used + cost > maxChars) break;
    kept.push(s);
    used += cost;
  }
  if (kept.length) return kept.join(' ');
  const first = sentences(flat)[0] ?? flat;
  if (first.length <= 2 * maxChars) return first;
  const cut = first.slice(0, 2 * maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/u, '')}…`;
}
