// What the meta model is told of automemo/lib's pipeline holds. Each stage's contract is read out of the generated
// helper reference (the text the prompt carries) and executed: a stage changes only the state fields its doc says it
// writes (and each of them in some state), its output does not move when a field it does not read is changed, and
// hits come out in the documented order. Then the facts a real model had to guess, one by one: how fusion treats
// earlier hits, how ensureHits knows fusion ran, the unit and BM25 id formats, what runStages adds.
import { describe, expect, it } from 'vitest';
import { libReference } from '../../memo-programs/lib-reference.ts';
import { Bm25Index } from '../../memo-programs/lib/bm25.ts';
import { capPerSource, dedupe, mmrStage } from '../../memo-programs/lib/diversity.ts';
import { graphExpand, hopExpand, neighbourExpand } from '../../memo-programs/lib/expansion.ts';
import { ensureHits, fuseRrf, maxFuse, rrfFuse, weightedFuse } from '../../memo-programs/lib/fusion.ts';
import { packWhole } from '../../memo-programs/lib/packing.ts';
import { runStages } from '../../memo-programs/lib/pipeline.ts';
import { entityQueries, prfQuery } from '../../memo-programs/lib/query-rewrite.ts';
import { initialState, type RetrievalState, type Stage } from '../../memo-programs/lib/retrieval-state.ts';
import { routeByKind } from '../../memo-programs/lib/routing.ts';
import { bm25Stage } from '../../memo-programs/lib/search-stages.ts';
import { preferLatest, recencyBoost, timeBoost } from '../../memo-programs/lib/time-focus.ts';
import { choiceEvidence, choiceQueries } from '../../memo-programs/lib/choices.ts';
import { entityBoost, entityFilter } from '../../memo-programs/lib/entity-focus.ts';
import { insightsPreamble } from '../../memo-programs/lib/insights.ts';
import { UnitStore } from '../../memo-programs/lib/unit-store.ts';
import { clock, dialogue, question, smallStore, stateFor } from '../support/pipeline-store.ts';

const FIELDS = ['queries', 'lists', 'hits', 'payload', 'trace', 'preamble', 'episodes'] as const;
type Field = (typeof FIELDS)[number];

/** Each documented function's contract, as the prompt states it. */
interface Contract {
  reads: string[];
  writes: string[];
  order?: string;
  /** A router: it also reads and writes whatever the stages it routes to do. */
  whateverRouted: boolean;
}

function contracts(): Map<string, Contract> {
  const out = new Map<string, Contract>();
  for (const m of libReference().matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\nfunction (\w+)/g)) {
    const doc = m[1] as string;
    const tag = (name: string) => new RegExp(`^ \\* ${name}: (.*)$`, 'm').exec(doc)?.[1]?.trim();
    // Top-level comma-separated names, each optionally followed by "(…)".
    const names = (line: string | undefined) => {
      let depth = 0;
      const parts: string[] = [];
      let cur = '';
      for (const ch of line ?? '') {
        if (ch === '(') depth++;
        if (ch === ')') depth--;
        if (ch === ',' && depth === 0) {
          parts.push(cur);
          cur = '';
        } else cur += ch;
      }
      parts.push(cur);
      return parts.map((p) => p.trim().split(/[\s(]/)[0] as string).filter(Boolean);
    };
    const writes = tag('writes');
    if (writes === undefined) continue;
    out.set(m[2] as string, {
      reads: names(tag('reads')),
      writes: names(writes),
      ...(tag('order') ? { order: tag('order') as string } : {}),
      whateverRouted: /whatever the routed stages write/.test(writes),
    });
  }
  return out;
}

const QUESTIONS = [
  'When did Ben and Clara go hiking in May 2023?',
  'What did Anna adopt?',
  'Did Clara start a pottery class?',
];

/** Choices for one question, so the choice stages have something to act on. */
const CHOICES: Record<string, string[]> = { 'What did Anna adopt?': ['black bear', 'puppy named Biscuit', 'kitten'] };

/** A state in one of three conditions: fresh, lists pending beside earlier hits, or hits only (units filed by speaker). */
async function stateIn(condition: number, q: string): Promise<RetrievalState> {
  const state = await stateFor(q, { entity: 'speaker' });
  if (CHOICES[q]) state.task = { ...state.task, meta: { choices: CHOICES[q] } };
  if (condition === 0) return state;
  await bm25Stage({ k: 6 })(state);
  state.hits = [{ label: 7, score: 0.5, via: 'earlier' }];
  if (condition === 2) await rrfFuse()(state);
  state.trace = ['bm25Stage'];
  return state;
}

const snapshot = (s: RetrievalState) =>
  Object.fromEntries(FIELDS.map((f) => [f, JSON.stringify(s[f] ?? null)])) as Record<Field, string>;
const PERTURBED: Record<Field, (s: RetrievalState) => void> = {
  queries: (s) => void (s.queries = [{ text: 'Biscuit chewed the running shoes', weight: 1, origin: 'task' }]),
  lists: (s) => void (s.lists = [{ name: 'other', weight: 1, labels: [8, 0, 1] }]),
  hits: (s) => void (s.hits = [{ label: 3, score: 2, via: 'other' }]),
  payload: (s) => void (s.payload = { text: 'earlier payload', images: [] }),
  trace: (s) => void (s.trace = ['other-stage']),
  preamble: (s) => void (s.preamble = 'Insights:\nsomething else'),
  episodes: (s) => void (s.episodes = [1]),
};

/** Hits as an `order` line says: "hits best first: score descending[, ties by label ascending|descending]". */
function inOrder(hits: { score: number; label: number }[], order: string): boolean {
  const m = /^hits best first: score descending(?:, ties by label (ascending|descending))?$/.exec(order);
  if (!m) throw new Error(`an order the test cannot read: ${order}`);
  const tie = m[1] === 'descending' ? -1 : 1;
  return hits.every((h, i) => {
    const prev = hits[i - 1];
    return (
      !prev ||
      prev.score > h.score ||
      (prev.score === h.score && (m[1] === undefined || tie * (h.label - prev.label) > 0))
    );
  });
}

const STAGES: [string, () => Stage][] = [
  ['bm25Stage', () => bm25Stage({ k: 5 })],
  ['rrfFuse', () => rrfFuse()],
  ['weightedFuse', () => weightedFuse()],
  ['maxFuse', () => maxFuse()],
  ['prfQuery', () => prfQuery()],
  ['entityQueries', () => entityQueries({ minNames: 1 })],
  ['neighbourExpand', () => neighbourExpand({ window: 1 })],
  ['graphExpand', () => graphExpand()],
  ['hopExpand', () => hopExpand()],
  ['mmrStage', () => mmrStage()],
  ['capPerSource', () => capPerSource({ max: 1 })],
  ['timeBoost', () => timeBoost()],
  ['recencyBoost', () => recencyBoost({ when: 'always' })],
  ['dedupe', () => dedupe()],
  ['packWhole', () => packWhole({ maxChars: 300 })],
  ['choiceQueries', () => choiceQueries()],
  ['choiceEvidence', () => choiceEvidence()],
  ['entityFilter', () => entityFilter()],
  ['entityBoost', () => entityBoost()],
  ['preferLatest', () => preferLatest({ overlap: 0.1 })],
  ['insightsPreamble', () => insightsPreamble()],
  ['routeByKind', () => routeByKind({ time: [timeBoost()], entities: [entityQueries()], other: [bm25Stage()] })],
];
const ROUTED = ['timeBoost', 'entityQueries', 'bm25Stage'];

describe("automemo/lib's stage contracts, as the prompt states them", () => {
  const docs = contracts();

  it('are stated for every stage, with the fields a stage reads and writes', () => {
    for (const [name] of STAGES) {
      const c = docs.get(name);
      expect(c, name).toBeDefined();
      expect(c?.writes.length, name).toBeGreaterThan(0);
      for (const f of [...(c?.reads ?? []), ...(c?.writes ?? [])])
        expect([...FIELDS, 'store', 'task', 'and'], `${name}: ${f}`).toContain(f);
    }
    expect(docs.get('ensureHits')).toMatchObject({ reads: ['lists', 'hits'], writes: ['hits', 'lists'] });
  });

  it('hold when each stage runs: it writes only what it says (each in some state), reads only what it says, orders hits as it says', async () => {
    for (const [name, make] of STAGES) {
      const own = docs.get(name) as Contract;
      const routed = own.whateverRouted ? ROUTED.map((r) => docs.get(r) as Contract) : [];
      const c = { ...own, reads: [...own.reads, ...routed.flatMap((r) => r.reads)] };
      const allowed = new Set<string>([...c.writes, ...routed.flatMap((r) => r.writes)]);
      const written = new Set<string>();
      for (const q of QUESTIONS) {
        for (let condition = 0; condition < 3; condition++) {
          const state = await stateIn(condition, q);
          const before = snapshot(state);
          await make()(state);
          const after = snapshot(state);
          for (const f of FIELDS) if (before[f] !== after[f]) written.add(f);
          for (const f of FIELDS)
            if (before[f] !== after[f])
              expect(
                allowed.has(f),
                `${name} wrote ${f}, which its doc does not say (question "${q}", condition ${condition})`,
              ).toBe(true);
          if (c.order) expect(inOrder(state.hits, c.order), `${name}: hits not ${c.order}`).toBe(true);
          // A field the stage does not read, changed: what the stage writes (other than that field) stays the same.
          for (const f of FIELDS.filter((x) => !c.reads.includes(x))) {
            const other = await stateIn(condition, q);
            PERTURBED[f](other);
            await make()(other);
            const out = snapshot(other);
            for (const w of [...allowed].filter((x) => x !== f) as Field[])
              expect(out[w], `${name} read ${f}, which its doc does not say (it changed ${w})`).toBe(after[w]);
          }
        }
      }
      // Every field it says it writes, it writes in some state.
      for (const f of c.writes.filter((x) => (FIELDS as readonly string[]).includes(x)))
        expect(written.has(f), `${name} never wrote ${f}`).toBe(true);
    }
  });
});

describe("automemo/lib's documented facts", () => {
  it('fusion takes the earlier hits in as one more list named "earlier" of weight 1, and keeps their via', async () => {
    const state = await stateIn(1, QUESTIONS[0] as string);
    const lists = state.lists.slice();
    const earlier = state.hits.slice();
    await rrfFuse({ k: 60 })(state);
    const expected = fuseRrf(
      [
        ...lists,
        { name: 'earlier', weight: 1, labels: earlier.map((h) => h.label), scores: earlier.map((h) => h.score) },
      ],
      60,
    );
    expect(state.hits.map((h) => [h.label, h.score])).toEqual(expected.map((h) => [h.label, h.score]));
    expect(state.hits.find((h) => h.label === 7)?.via).toBe('earlier');
    expect(state.lists).toEqual([]);
  });

  it('ensureHits fuses only when lists are pending; otherwise it returns the hits as they are', async () => {
    const state = await stateIn(2, QUESTIONS[1] as string);
    const hits = state.hits;
    expect(ensureHits(state)).toBe(hits);
    const pending = await stateIn(1, QUESTIONS[1] as string);
    const lists = pending.lists.slice();
    const fused = ensureHits(pending);
    expect(pending.lists).toEqual([]);
    expect(fused.map((h) => [h.label, h.score])).toEqual(
      fuseRrf([...lists, { name: 'earlier', weight: 1, labels: [7], scores: [0.5] }], 60).map((h) => [
        h.label,
        h.score,
      ]),
    );
  });

  it("ids: a unit's id is its turn id, else <taskId>#<position>; a BM25 document's id is its label as a string, ties in string order", async () => {
    const { store } = await smallStore();
    expect(store.units.map((u) => u.id).slice(0, 2)).toEqual(['S1:1', 'S1:2']);
    expect(store.units.every((u, i) => u.label === i)).toBe(true);
    expect(store.bm25.search(['bear'], 5).map((h) => h.id)).toEqual([
      String(store.units.findIndex((u) => u.text.includes('bear'))),
    ]);
    const bare = new UnitStore({ index: 'bm25' });
    const episode = dialogue('T9', '2023-01-01', [['A', 'hello there friend']]);
    await bare.add({ ...episode, meta: {} }, clock());
    expect(bare.units[0]?.id).toBe('T9#0');
    const index = new Bm25Index();
    for (const id of ['9', '10', '2']) index.add(id, ['same', 'words']);
    for (const id of ['3', '4', '5', '6', '7']) index.add(id, ['other', 'text']);
    expect(index.search(['same'], 3).map((h) => h.id)).toEqual(['10', '2', '9']);
  });

  it('runStages appends each stage to the trace, packs whole units when no stage did, and gives an empty store an empty payload', async () => {
    const { store, ctx } = await smallStore();
    const payload = await runStages([bm25Stage(), rrfFuse()], store, question('Who saw a bear?'), ctx);
    expect(payload.text).toContain('black bear');
    expect(payload.metadata).toMatchObject({ stages: ['bm25Stage', 'rrfFuse'] });
    expect(await runStages([bm25Stage()], new UnitStore(), question('Who saw a bear?'), ctx)).toEqual({
      text: '',
      images: [],
    });
    expect(initialState(question('Who?'), store, ctx)).toMatchObject({
      queries: [{ text: 'Who?', weight: 1, origin: 'task' }],
      lists: [],
      hits: [],
      trace: [],
    });
  });
});

describe('the helper reference a prompt carries', () => {
  it('names each type as its module declares it and leaves out what a program cannot use (private members)', () => {
    const text = libReference();
    // Every module is shown, so a type of another module needs no import("./x.ts") qualifier (95 of them, ~2,400
    // characters in every prompt that carries the reference, before).
    expect(text).not.toMatch(/import\("/);
    expect(text).toContain('const CHOICE_QUERIES: DeclaredStage<{\n  weight: FloatTunable;\n}>;');
    expect(text).toMatch(/^interface IntTunable \{/m);
    // Bm25Index's private fields and methods are not listed; its public surface is.
    expect(text).not.toMatch(/^\s*private /m);
    const bm25 = /class Bm25Index \{\n([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
    expect(bm25).toContain('constructor(options?: Bm25Options);');
    expect(bm25).toContain('search(query: string | string[], k: number, filter?: (id: string) => boolean): Bm25Hit[];');
    expect(bm25).not.toMatch(/slotOf|postings|compact/);
  });
});
