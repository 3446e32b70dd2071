import { describe, expect, it } from 'vitest';
import { CODE_PROFILE, type OmniConfig, PAPER_PROFILE } from '../../../memo-programs/seeds/omni-simplemem/config.ts';
import { formatUnit } from '../../../memo-programs/seeds/omni-simplemem/format.ts';
import { KnowledgeGraph, offlineEntities } from '../../../memo-programs/seeds/omni-simplemem/graph.ts';
import type { Mau } from '../../../memo-programs/seeds/omni-simplemem/mau.ts';
import { phashSimilarity, TextGate } from '../../../memo-programs/seeds/omni-simplemem/novelty.ts';
import { parseQuery, strategyTopK } from '../../../memo-programs/seeds/omni-simplemem/query.ts';

const cfg = (over: Partial<OmniConfig> = {}) => () => ({ ...CODE_PROFILE, ...over });

describe('novelty gate', () => {
  it('rejects near-duplicate text, marks overlap uncertain, and is skipped when forced', () => {
    const gate = new TextGate(cfg());
    const a = 'we went hiking in the mountains last weekend with the kids';
    expect(gate.check(a, false)).toBe('accept');
    gate.remember(a);
    // 8 shared of 12 distinct words: Jaccard 0.67, between 0.5 and 0.8
    expect(gate.check('we went camping in the mountains last weekend with friends', false)).toBe('uncertain');
    expect(gate.check(a, false)).toBe('reject');
    expect(gate.check(a, true)).toBe('accept');
    expect(gate.check('short', true)).toBe('reject'); // under 10 characters, even when forced
  });

  it('compares perceptual hashes by Hamming distance', () => {
    expect(phashSimilarity('ffffffffffffffff', 'ffffffffffffffff')).toBe(1);
    expect(phashSimilarity('ffffffffffffffff', 'fffffffffffffff0')).toBe(1 - 4 / 64);
    expect(phashSimilarity('0000000000000000', 'ffffffffffffffff')).toBe(0);
  });
});

describe('query parsing', () => {
  const now = Date.UTC(2023, 7, 25, 12);
  it('turns relative dates into a range from the memory clock and drops them from the query', () => {
    const q = parseQuery('What did Caroline do yesterday?', now, false);
    expect(q.text).toBe('What did Caroline do ?');
    expect(q.timeRange).toEqual({ from: Date.UTC(2023, 7, 24), to: Date.UTC(2023, 7, 25) });
    expect(strategyTopK(q, CODE_PROFILE)).toBe(20);
    expect(strategyTopK(parseQuery('show me exactly what she said', now, false), CODE_PROFILE)).toBe(5);
    expect(strategyTopK(parseQuery('What does Melanie paint?', now, false), CODE_PROFILE)).toBe(10);
  });

  it('narrows to images only for whole-word hints, and only when images are in memory', () => {
    expect(parseQuery('What did the photo show?', now, true).modality).toBe('visual');
    expect(parseQuery('What did the photo show?', now, false).modality).toBeUndefined();
    expect(parseQuery('Has she seen a therapist?', now, true).modality).toBe('visual');
    expect(parseQuery('What was said about seeds?', now, true).modality).toBeUndefined();
  });
});

describe('knowledge graph', () => {
  it('extracts capitalised names and acronyms, not sentence openers', () => {
    const e = offlineEntities('Wow, Caroline! I saw the LGBTQ parade in New York with Melanie.', 'Jon').entities.map((x) => x.name);
    expect(e).toEqual(['Jon', 'Caroline', 'LGBTQ', 'New York', 'Melanie']);
  });

  it('reaches units through related entities, rarest first, within two hops', () => {
    const g = new KnowledgeGraph(cfg());
    g.add(offlineEntities('Caroline loves Sweden', 'Caroline'), 0);
    g.add(offlineEntities('Her grandmother lives in Sweden near Stockholm', 'Caroline'), 1);
    for (let i = 2; i < 30; i++) g.add(offlineEntities(`Caroline and Melanie chat ${i}`, 'Melanie'), i);
    const r = g.retrieve('Where does her grandmother live in Sweden?', ['Sweden'], 3);
    expect(r.units.slice(0, 2).sort()).toEqual([0, 1]);
    expect(r.entities).toContain('Stockholm');
  });

  it('merges near-identical names only in the paper profile', () => {
    const code = new KnowledgeGraph(cfg());
    code.addEntity('Melanie', 'PERSON', 0);
    code.addEntity('Melany', 'PERSON', 1);
    expect(code.graph.order).toBe(2);
    const paper = new KnowledgeGraph(() => PAPER_PROFILE);
    paper.addEntity('Melanie', 'PERSON', 0);
    paper.addEntity('Melany', 'PERSON', 1);
    expect(paper.graph.order).toBe(1);
  });
});

describe('format_for_llm', () => {
  const mau: Mau = {
    id: 'm1',
    label: 0,
    timestamp: Date.UTC(2023, 4, 8),
    modality: 'text',
    summary: 'Caroline: I went to a support group',
    rawPointer: 'raw:0',
    metadata: { sessionId: 's1', source: 'locomo', persons: [], entities: [], keywords: [], tags: [] },
    links: { related: [] },
    status: 'active',
  };
  const o = { showTime: true, fullTextChars: 2000 };

  it('shows the summary and the time; a summary that is the opening of the full text gives way to it', () => {
    expect(formatUnit(1, mau, undefined, o)).toBe('[Context 1]\nContent: Caroline: I went to a support group\nTime: 8 May 2023');
    const full = 'Caroline: I went to a support group yesterday and it was so powerful.';
    expect(formatUnit(2, mau, { fullText: full }, o)).toBe(`[Context 2]\nContent: ${full}\nTime: 8 May 2023`);
    expect(formatUnit(3, { ...mau, summary: 'A support group visit.' }, { fullText: full }, o)).toContain(`Full text: ${full}`);
  });
});
