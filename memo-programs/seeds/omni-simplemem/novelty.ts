// Selective ingestion. Text: Jaccard over lower-cased whitespace tokens (punctuation kept, as released) against a
// window of recent texts — above the reject threshold the text is dropped, above the uncertain threshold it is
// stored but marked. Images: similarity to the last accepted image (embedding cosine or perceptual hash).
import { jaccard } from 'automemo/lib/jaccard';
import type { OmniConfig } from './config.ts';

export type Verdict = 'accept' | 'uncertain' | 'reject';

export class TextGate {
  private readonly recent: string[] = [];

  constructor(private readonly cfg: () => OmniConfig) {}

  check(text: string, force: boolean): Verdict {
    const c = this.cfg();
    if (text.trim().length < c.minTextChars) return 'reject';
    if (force) return 'accept';
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    let best = 0;
    for (const past of this.recent) {
      const cut = c.noveltyHistoryChars > 0 ? past.slice(0, c.noveltyHistoryChars) : past;
      best = Math.max(best, jaccard(words, cut.toLowerCase().split(/\s+/).filter(Boolean)));
    }
    if (best > c.jaccardReject) return 'reject';
    return best > c.jaccardUncertain ? 'uncertain' : 'accept';
  }

  remember(text: string): void {
    this.recent.push(text);
    if (this.recent.length > this.cfg().noveltyWindow) this.recent.shift();
  }
}

/** Similarity of two 64-bit perceptual hashes in hex: 1 − Hamming distance / 64. */
export function phashSimilarity(a: string, b: string): number {
  let diff = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    let x = parseInt(a[i] as string, 16) ^ parseInt(b[i] as string, 16);
    while (x) {
      diff += x & 1;
      x >>= 1;
    }
  }
  return 1 - diff / 64;
}

export class ImageGate {
  private last: { vector?: number[]; phash?: string } | undefined;

  constructor(private readonly cfg: () => OmniConfig) {}

  /** The first image is always accepted; the reference moves only on accept. */
  check(sample: { vector?: number[]; phash?: string }, similarity: (a: typeof sample, b: typeof sample) => number): Verdict {
    const c = this.cfg();
    if (!this.last) {
      this.last = sample;
      return 'accept';
    }
    const sim = similarity(sample, this.last);
    if (sim > c.imageReject) return 'reject';
    if (sim < c.imageAccept) {
      this.last = sample;
      return 'accept';
    }
    return 'uncertain';
  }
}
