// USE-lite's SentencePiece tokenizer, written for speed but giving exactly the ids of @energetic-ai/embeddings'
// Tokenizer (the test compares vectors over many texts): a trie over code points, then the same best-path search,
// quirks included (a score of 0 counts as "no path yet"; later ties win; the walk back steps by the piece's UTF-16
// length; runs of unknown pieces become one). Plain JavaScript: it runs in the embedding worker threads.

const SEPARATOR = '\u2581';
/** Pieces before this index are control symbols, never matched. */
const RESERVED = 6;

export class UseTokenizer {
  /** @param {[string, number][]} vocabulary pieces with their log-probabilities, by id */
  constructor(vocabulary) {
    this.vocabulary = vocabulary;
    this.root = node();
    for (let id = RESERVED; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id];
      let at = this.root;
      let length = 0;
      for (const ch of piece) {
        const cp = ch.codePointAt(0);
        let next = at.children.get(cp);
        if (!next) at.children.set(cp, (next = node()));
        at = next;
        length++;
      }
      if (length === 0) continue;
      at.end = true;
      at.score = score;
      at.id = id;
      at.length = length;
    }
  }

  /** @param {string} text @returns {number[]} piece ids */
  encode(text) {
    const normalized = text.normalize('NFKC');
    const input = normalized.length > 0 ? SEPARATOR + normalized.replaceAll(' ', SEPARATOR) : normalized;
    const symbols = Array.from(input, (ch) => ch.codePointAt(0));
    const n = symbols.length;
    // Forward over start positions: when a start is reached its best path is final, and the pieces ending at a
    // position are weighed in the order of their start, as the reference weighs them.
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const from = best[i];
      let at = this.root.children.get(symbols[i]);
      let found = false;
      for (let j = i; at; ) {
        if (at.end) {
          found = true;
          const end = i + at.length;
          const score = at.score + from;
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = at.id;
          }
        }
        j++;
        at = j < n ? at.children.get(symbols[j]) : undefined;
      }
      // A character no piece starts with is one unknown piece (id 0) of score 0.
      if (!found && (best[i + 1] === 0 || from >= best[i + 1])) {
        best[i + 1] = from;
        words[i + 1] = 0;
      }
    }
    const ids = [];
    for (let at = n; at > 0; at -= this.vocabulary[words[at]][0].length) ids.push(words[at]);
    const merged = [];
    let previousUnknown = false;
    for (const id of ids) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}

function node() {
  return { children: new Map(), end: false, score: 0, id: 0, length: 0 };
}
