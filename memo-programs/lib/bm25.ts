// Incremental Okapi BM25 with rank_bm25's defaults (k1 1.5, b 0.75, epsilon 0.25): documents can be added and
// removed at any time; statistics are kept current, so a search never needs a rebuild.
// Layout for speed at 100k+ documents: each document gets an integer slot, postings are parallel arrays of
// (slot, tf), and scores accumulate in a typed array — a query word present in most documents costs a pass over
// numbers, not a hash-map update per document. Removed documents leave dead entries that searches skip and that
// are compacted away once a posting list is half dead.
import { tokenize } from './tokenize.ts';

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** Floor for negative idf, as a fraction of the mean idf (rank_bm25's epsilon). */
  epsilon?: number;
  tokenizer?: (text: string) => string[];
  /** How documents of equal score are ordered (default: by id, as strings). */
  tieOrder?: (a: string, b: string) => number;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

interface Posting {
  slots: number[];
  tfs: number[];
  /** Entries whose document is still present (the document frequency). */
  live: number;
}

export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly epsilon: number;
  private readonly tokenizer: (text: string) => string[];
  private readonly tieOrder: (a: string, b: string) => number;
  private readonly slotOf = new Map<string, number>();
  private readonly ids: string[] = [];
  /** Document length per slot; -1 once removed. */
  private readonly lengths: number[] = [];
  private readonly slotTerms: string[][] = [];
  private readonly postings = new Map<string, Posting>();
  private totalLength = 0;
  private meanIdfCache: number | undefined;
  private scratch = new Float64Array(0);

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.5;
    this.b = options.b ?? 0.75;
    this.epsilon = options.epsilon ?? 0.25;
    this.tokenizer = options.tokenizer ?? ((text) => tokenize(text));
    this.tieOrder = options.tieOrder ?? ((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds a document, replacing any earlier one with the same id. */
  add(id: string, text: string | string[]): void {
    if (this.slotOf.has(id)) this.remove(id);
    const tokens = typeof text === 'string' ? this.tokenizer(text) : text;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    const slot = this.ids.length;
    this.ids.push(id);
    this.lengths.push(tokens.length);
    this.slotTerms.push([...tf.keys()]);
    this.slotOf.set(id, slot);
    this.totalLength += tokens.length;
    for (const [term, n] of tf) {
      let p = this.postings.get(term);
      if (!p) this.postings.set(term, (p = { slots: [], tfs: [], live: 0 }));
      p.slots.push(slot);
      p.tfs.push(n);
      p.live++;
    }
    this.meanIdfCache = undefined;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.slotOf.delete(id);
    this.totalLength -= this.lengths[slot] as number;
    this.lengths[slot] = -1;
    for (const term of this.slotTerms[slot] as string[]) {
      const p = this.postings.get(term) as Posting;
      p.live--;
      if (p.live === 0) this.postings.delete(term);
      else if (p.live * 2 < p.slots.length) this.compact(p);
    }
    this.slotTerms[slot] = [];
    this.meanIdfCache = undefined;
    return true;
  }

  private compact(p: Posting): void {
    const slots: number[] = [];
    const tfs: number[] = [];
    for (let i = 0; i < p.slots.length; i++) {
      if ((this.lengths[p.slots[i] as number] as number) >= 0) {
        slots.push(p.slots[i] as number);
        tfs.push(p.tfs[i] as number);
      }
    }
    p.slots = slots;
    p.tfs = tfs;
  }

  private rawIdf(df: number): number {
    const n = this.slotOf.size;
    return Math.log(n - df + 0.5) - Math.log(df + 0.5);
  }

  private meanIdf(): number {
    if (this.meanIdfCache === undefined) {
      let sum = 0;
      for (const p of this.postings.values()) sum += this.rawIdf(p.live);
      this.meanIdfCache = this.postings.size ? sum / this.postings.size : 0;
    }
    return this.meanIdfCache;
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.live ?? 0;
    if (df === 0) return 0;
    const idf = this.rawIdf(df);
    return idf < 0 ? this.epsilon * this.meanIdf() : idf;
  }

  /** The k best documents for the query, best first; scores <= 0 dropped. */
  search(query: string | string[], k: number, filter?: (id: string) => boolean): Bm25Hit[] {
    const qTokens = typeof query === 'string' ? this.tokenizer(query) : query;
    if (this.slotOf.size === 0 || k <= 0) return [];
    const avgdl = this.totalLength / this.slotOf.size || 1;
    if (this.scratch.length < this.ids.length) this.scratch = new Float64Array(Math.max(1024, this.ids.length * 2));
    const scores = this.scratch;
    const touched: number[] = [];
    // A word repeated in the query counts once per occurrence, as in rank_bm25.
    const counts = new Map<string, number>();
    for (const t of qTokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const k1 = this.k1;
    const norm0 = k1 * (1 - this.b);
    const norm1 = (k1 * this.b) / avgdl;
    for (const [term, n] of counts) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = this.idf(term) * n;
      const { slots, tfs } = p;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i] as number;
        const len = this.lengths[slot] as number;
        if (len < 0) continue;
        const tf = tfs[i] as number;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + (idf * tf * (k1 + 1)) / (tf + norm0 + norm1 * len);
      }
    }
    const hits: Bm25Hit[] = [];
    const keep = (slot: number) => (scores[slot] as number) > 0 && (!filter || filter(this.ids[slot] as string));
    if (touched.length <= 4 * k) {
      for (const slot of touched) if (keep(slot)) hits.push({ id: this.ids[slot] as string, score: scores[slot] as number });
    } else {
      // Only documents at or above the k-th best score can be in the answer.
      const threshold = kthLargest(touched.map((s) => scores[s] as number), k);
      for (const slot of touched) {
        if ((scores[slot] as number) >= threshold && keep(slot)) hits.push({ id: this.ids[slot] as string, score: scores[slot] as number });
      }
      if (filter && hits.length < k) {
        // The filter removed some of the best: fall back to every touched document.
        hits.length = 0;
        for (const slot of touched) if (keep(slot)) hits.push({ id: this.ids[slot] as string, score: scores[slot] as number });
      }
    }
    for (const slot of touched) scores[slot] = 0;
    hits.sort((x, y) => y.score - x.score || this.tieOrder(x.id, y.id));
    return hits.slice(0, k);
  }
}

/** The k-th largest value (1 ≤ k) of an array, by partial selection; the array is reordered. */
function kthLargest(values: number[], k: number): number {
  const target = Math.min(k, values.length) - 1;
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) > pivot) i++;
      while ((values[j] as number) < pivot) j--;
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return values[target] as number;
}
