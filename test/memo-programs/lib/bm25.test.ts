import { describe, expect, it } from 'vitest';
import { Bm25Index } from 'automemo/lib';

function corpus() {
  const idx = new Bm25Index();
  idx.add('d1', 'a b');
  idx.add('d2', 'a c');
  idx.add('d3', 'd e f');
  return idx;
}

describe('Bm25Index', () => {
  it('matches hand-computed Okapi scores (k1 1.5, b 0.75)', () => {
    // N = 3, avgdl = 7/3. idf(b) = ln(2.5) − ln(1.5) = 0.510826.
    // score(d1, "b") = 0.510826 · 2.5 / (1 + 1.5 · (0.25 + 0.75 · 2 / (7/3))) = 0.545930
    const hits = corpus().search('b', 10);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.id).toBe('d1');
    expect(hits[0]?.score).toBeCloseTo(0.54593, 4);
  });

  it('floors negative idf at epsilon times the mean idf, like rank_bm25', () => {
    // idf(a) = ln(1.5) − ln(2.5) < 0; mean idf over {a,b,c,d,e,f} = 4 · 0.510826 / 6 = 0.340551;
    // floor = 0.25 · 0.340551 = 0.085138; score(d1, "a") = 0.085138 · 2.5 / 2.339286 = 0.090987
    const hits = corpus().search('a', 10);
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2']);
    expect(hits[0]?.score).toBeCloseTo(0.090987, 4);
  });

  it('ranks by summed term scores and honours k and the filter', () => {
    const idx = corpus();
    expect(idx.search('a b', 1).map((h) => h.id)).toEqual(['d1']);
    expect(idx.search('a b', 10, (id) => id !== 'd1').map((h) => h.id)).toEqual(['d2']);
    expect(idx.search('zzz', 10)).toEqual([]);
  });

  it('gives the same scores incrementally as a fresh build', () => {
    const inc = new Bm25Index();
    const docs: Record<string, string> = {};
    for (let i = 0; i < 60; i++) {
      const text = `doc ${i} topic${i % 7} word${i % 3} shared`;
      docs[`x${i}`] = text;
      inc.add(`x${i}`, text);
    }
    for (let i = 0; i < 60; i += 4) {
      inc.remove(`x${i}`);
      delete docs[`x${i}`];
    }
    inc.add('x1', 'replaced topic3 entirely');
    docs.x1 = 'replaced topic3 entirely';
    const fresh = new Bm25Index();
    for (const [id, text] of Object.entries(docs)) fresh.add(id, text);
    expect(inc.size).toBe(fresh.size);
    for (const q of ['topic3 word1', 'shared', 'replaced', 'doc 17']) {
      const a = inc.search(q, 50);
      const b = fresh.search(q, 50);
      expect(a.map((h) => h.id).sort()).toEqual(b.map((h) => h.id).sort());
      const byId = new Map(b.map((h) => [h.id, h.score]));
      for (const h of a) expect(h.score).toBeCloseTo(byId.get(h.id) as number, 9);
    }
  });

  it('searches non-Latin text through the Unicode tokenizer', () => {
    const idx = new Bm25Index();
    idx.add('zh', '我喜欢猫和狗');
    idx.add('ru', 'я люблю кошек');
    idx.add('en', 'I like cats');
    expect(idx.search('猫', 5).map((h) => h.id)).toEqual(['zh']);
    expect(idx.search('кошек', 5).map((h) => h.id)).toEqual(['ru']);
  });
});

describe('Bm25Index pruning', () => {
  it('returns exactly the unpruned top k on a corpus with very common words', () => {
    const idx = new Bm25Index();
    const vocab = Array.from({ length: 400 }, (_, i) => `w${i}`);
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let d = 0; d < 3000; d++) {
      // Zipf-like: low word ids are very common, so most documents share them.
      const words = Array.from({ length: 12 }, () => vocab[Math.floor(400 * rnd() ** 3)] as string);
      idx.add(`d${d}`, `${words.join(' ')} the a to`);
    }
    for (let q = 0; q < 50; q++) {
      const query = `the w${Math.floor(rnd() * 400)} a w${Math.floor(rnd() * 40)} w1 w1 to`;
      const pruned = idx.search(query, 10);
      const full = idx.search(query, 100_000).slice(0, 10);
      expect(pruned.map((h) => h.id)).toEqual(full.map((h) => h.id));
      pruned.forEach((h, i) => expect(h.score).toBeCloseTo(full[i]?.score as number, 9));
    }
  });

  it('counts a repeated query word once per occurrence', () => {
    const idx = new Bm25Index();
    idx.add('x', 'apple pie');
    idx.add('y', 'banana split');
    idx.add('z', 'cherry tart');
    const once = idx.search('apple', 1)[0]?.score as number;
    expect(idx.search('apple apple', 1)[0]?.score).toBeCloseTo(2 * once, 9);
  });
});
