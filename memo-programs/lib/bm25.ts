// Incremental Okapi BM25 with rank_bm25's defaults (k1 1.5, b 0.75, epsilon 0.25): documents can be added and
// removed at any time; statistics are kept current, so a search never needs a rebuild.
import { tokenize } from './tokenize.ts';

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** Floor for negative idf, as a fraction of the mean idf (rank_bm25's epsilon). */
  epsilon?: number;
  tokenizer?: (text: string) => string[];
}

export interface Bm25Hit {
  id: string;
  score: number;
}

interface Doc {
  length: number;
  terms: Map<string, number>;
}

export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly epsilon: number;
  private readonly tokenizer: (text: string) => string[];
  private readonly docs = new Map<string, Doc>();
  private readonly postings = new Map<string, Map<string, number>>();
  private totalLength = 0;
  private meanIdfCache: number | undefined;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.5;
    this.b = options.b ?? 0.75;
    this.epsilon = options.epsilon ?? 0.25;
    this.tokenizer = options.tokenizer ?? ((text) => tokenize(text));
  }

  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  /** Adds a document, replacing any earlier one with the same id. */
  add(id: string, text: string | string[]): void {
    if (this.docs.has(id)) this.remove(id);
    const tokens = typeof text === 'string' ? this.tokenizer(text) : text;
    const terms = new Map<string, number>();
    for (const t of tokens) terms.set(t, (terms.get(t) ?? 0) + 1);
    this.docs.set(id, { length: tokens.length, terms });
    this.totalLength += tokens.length;
    for (const [term, tf] of terms) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = new Map()));
      posting.set(id, tf);
    }
    this.meanIdfCache = undefined;
  }

  remove(id: string): boolean {
    const doc = this.docs.get(id);
    if (!doc) return false;
    this.docs.delete(id);
    this.totalLength -= doc.length;
    for (const term of doc.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(id);
      if (posting && posting.size === 0) this.postings.delete(term);
    }
    this.meanIdfCache = undefined;
    return true;
  }

  private rawIdf(df: number): number {
    const n = this.docs.size;
    return Math.log(n - df + 0.5) - Math.log(df + 0.5);
  }

  private meanIdf(): number {
    if (this.meanIdfCache === undefined) {
      let sum = 0;
      for (const posting of this.postings.values()) sum += this.rawIdf(posting.size);
      this.meanIdfCache = this.postings.size ? sum / this.postings.size : 0;
    }
    return this.meanIdfCache;
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.size ?? 0;
    if (df === 0) return 0;
    const idf = this.rawIdf(df);
    return idf < 0 ? this.epsilon * this.meanIdf() : idf;
  }

  /** Scores every document containing a query term; best first; scores <= 0 dropped. */
  search(query: string | string[], k: number, filter?: (id: string) => boolean): Bm25Hit[] {
    const qTokens = typeof query === 'string' ? this.tokenizer(query) : query;
    if (this.docs.size === 0 || k <= 0) return [];
    const avgdl = this.totalLength / this.docs.size || 1;
    const scores = new Map<string, number>();
    for (const term of qTokens) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = this.idf(term);
      for (const [id, tf] of posting) {
        if (filter && !filter(id)) continue;
        const doc = this.docs.get(id) as Doc;
        const s = (idf * (tf * (this.k1 + 1))) / (tf + this.k1 * (1 - this.b + (this.b * doc.length) / avgdl));
        scores.set(id, (scores.get(id) ?? 0) + s);
      }
    }
    const hits: Bm25Hit[] = [];
    for (const [id, score] of scores) if (score > 0) hits.push({ id, score });
    hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    return hits.slice(0, k);
  }
}
