// Omni-SimpleMem as a memo program: MAUs in a hot tier (in the isolate) and a cold tier (ctx.kv), novelty-gated
// ingestion, hybrid dense + BM25 search with filters applied inside the search, a knowledge graph whose reached
// units are merged into the results, and pyramid retrieval (summaries, then details) under the payload budget.
// See README.md for each part and where this port departs from the released code.
import { defineMemo, type EpisodeRecorder, type ImageRef, type MemoContext, type VectorIndex } from 'automemo/contract';
import { Bm25Index } from 'automemo/lib/bm25';
import { cosine } from 'automemo/lib/cosine';
import { stepText } from 'automemo/lib/units';
import { config } from './config.ts';
import { formatUnit } from './format.ts';
import { type Extracted, KnowledgeGraph, offlineEntities } from './graph.ts';
import { type Mau, type MauDetails, mauId, type Modality } from './mau.ts';
import { ImageGate, phashSimilarity, TextGate } from './novelty.ts';
import { parseQuery, strategyTopK } from './query.ts';

export { config, CODE_PROFILE, PAPER_PROFILE } from './config.ts';

const cfg = () => config;
const hot: Mau[] = [];
const byId = new Map<string, Mau>();
const bm25 = new Bm25Index();
const graph = new KnowledgeGraph(cfg);
const textGate = new TextGate(cfg);
const imageGate = new ImageGate(cfg);
let dense: VectorIndex | undefined;
let hasVisual = false;
/** Whether the memo model answers for real (learned from its first reply). */
let modelOnline: boolean | undefined;

interface Candidate {
  text: string;
  modality: Modality;
  speaker?: string;
  image?: ImageRef;
  caption?: string;
  extracted?: Partial<Extracted> & { keywords?: string[] };
}

async function chat(ctx: MemoContext, system: string, user: string, maxTokens: number, json = false): Promise<string | undefined> {
  if (modelOnline === false) return undefined;
  const reply = await ctx.llm.chat({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }], maxTokens, temperature: 0, json });
  modelOnline = !reply.offline;
  return reply.offline ? undefined : reply.text;
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start)) as T;
  } catch {
    return undefined;
  }
}

/** The units of an episode: dialogue turns (with image captions), or steps and their images. */
async function candidates(ep: EpisodeRecorder, ctx: MemoContext): Promise<Candidate[]> {
  const turns = Array.isArray(ep.meta.turns) ? (ep.meta.turns as { speaker?: string; text?: string; caption?: string }[]) : undefined;
  if (turns) {
    const out: Candidate[] = turns.map((t) => ({
      text: `${t.speaker ?? ''}: ${t.text ?? ''}${t.caption ? ` [shared an image: ${t.caption}]` : ''}`,
      modality: 'text',
      ...(t.speaker ? { speaker: t.speaker } : {}),
    }));
    // With a memo model, the LoCoMo runner's ingestion: lossless restatements over windows of turns.
    const restated: Candidate[] = [];
    for (let i = 0; i < out.length; i += config.extractionWindow) {
      const window = out.slice(i, i + config.extractionWindow);
      const reply = await chat(
        ctx,
        'Rewrite the dialogue below as self-contained statements, one per fact, with no pronouns and no relative dates ' +
          '(use the session date). Return JSON {"entries":[{"lossless_restatement": string, "keywords": string[], ' +
          '"persons": string[], "entities": string[], "topic": string}]}.',
        `Session: ${ep.instruction}\n${window.map((c) => c.text).join('\n')}`,
        2000,
        true,
      );
      if (reply === undefined) return out;
      const parsed = parseJson<{ entries?: { lossless_restatement?: string; keywords?: string[]; persons?: string[]; entities?: string[] }[] }>(reply);
      for (const e of parsed?.entries ?? []) {
        if (typeof e.lossless_restatement !== 'string') continue;
        restated.push({
          text: e.lossless_restatement,
          modality: 'text',
          extracted: {
            entities: [...(e.persons ?? []), ...(e.entities ?? [])].filter((x) => typeof x === 'string').map((name) => ({ name, type: 'CONCEPT' })),
            relations: [],
            keywords: (e.keywords ?? []).filter((k) => typeof k === 'string'),
          },
        });
      }
    }
    return restated.length ? restated : out;
  }
  const note = config.notes && ep.outcome.note ? `; feedback: ${ep.outcome.note}` : '';
  const out: Candidate[] = [{ text: `${ep.instruction} — ${ep.outcome.success ? 'succeeded' : 'failed'}${note}${ep.answer ? `; answer: ${ep.answer}` : ''}`, modality: 'text' }];
  for (const step of ep.steps) {
    out.push({ text: stepText(step), modality: 'text' });
    for (const image of step.observation?.images ?? []) out.push({ text: image.caption ?? '', modality: 'visual', image });
  }
  for (const image of ep.initial.images ?? []) out.push({ text: image.caption ?? '', modality: 'visual', image });
  return out;
}

async function admitImage(c: Candidate, ctx: MemoContext): Promise<boolean> {
  if (!c.image) return false;
  const sample = config.imageSimilarity === 'phash' ? { phash: await ctx.images.phash(c.image) } : { vector: await ctx.embedImage(c.image) };
  const verdict = imageGate.check(sample, (a, b) =>
    a.phash && b.phash ? phashSimilarity(a.phash, b.phash) : a.vector && b.vector ? cosine(a.vector, b.vector) : 0,
  );
  if (verdict === 'reject') return false;
  if (!c.text) c.text = (await ctx.images.caption(c.image)).text || 'Image captured';
  c.caption = c.text;
  return true;
}

async function summarize(text: string, ctx: MemoContext): Promise<string> {
  if (text.length <= config.summaryChars) return text;
  const s = await chat(ctx, 'Summarize the following text in one concise sentence.', text.slice(0, 2000), 80);
  return s?.trim() || text.slice(0, config.summaryChars);
}

async function ingest(ep: EpisodeRecorder, ctx: MemoContext): Promise<void> {
  const session = ep.taskId;
  const kept: { c: Candidate; uncertain: boolean }[] = [];
  for (const c of await candidates(ep, ctx)) {
    if (c.modality === 'visual') {
      if (await admitImage(c, ctx)) kept.push({ c, uncertain: false });
      continue;
    }
    const text = c.text.length > config.maxTextChars ? `${c.text.slice(0, config.maxTextChars)}...` : c.text;
    const verdict = textGate.check(text, config.forceText);
    if (verdict === 'reject') continue;
    textGate.remember(text);
    kept.push({ c: { ...c, text }, uncertain: verdict === 'uncertain' });
  }
  if (kept.length === 0) return;
  // One embedding call per episode (full texts, as released), in chunks the host accepts.
  const vectors: number[][] = [];
  for (let i = 0; i < kept.length; i += 256) vectors.push(...(await ctx.embed(kept.slice(i, i + 256).map((k) => k.c.text.slice(0, 8000)))));
  dense ??= await ctx.vectors.create({ dim: vectors[0]?.length ?? 512, space: 'cosine', maxElements: 4096 });
  const now = ctx.now();
  const items: { label: number; vector: number[]; tags: string[] }[] = [];
  let prev: Mau | undefined;
  for (const [j, { c, uncertain }] of kept.entries()) {
    const label = hot.length;
    // Metadata entities come only from model extraction (as in the released LoCoMo ingestion); offline, the graph
    // gets capitalised-phrase entities of its own and the unit's metadata stays empty.
    const fromModel = c.extracted?.entities?.length ? (c.extracted as Extracted) : undefined;
    const extracted = fromModel ?? offlineEntities(c.text, c.speaker);
    const mau: Mau = {
      id: mauId(now, label),
      label,
      timestamp: now,
      modality: c.modality,
      summary: await summarize(c.text, ctx),
      rawPointer: `raw:${label}`,
      metadata: {
        sessionId: session,
        source: ep.env,
        // A dialogue turn already names its speaker in its text ("Caroline: ..."), as the runner stores it.
        persons: c.speaker ? [c.speaker] : [],
        entities: fromModel ? fromModel.entities.map((e) => e.name) : [],
        // Keywords come from model extraction; the offline ingestion stores the raw text only.
        keywords: c.extracted?.keywords ?? [],
        tags: [c.modality, `session:${session}`],
      },
      links: { related: [] },
      status: 'active',
      ...(uncertain ? { uncertain: true } : {}),
      ...(c.image ? { image: c.image } : {}),
    };
    if (prev) {
      prev.links.next = mau.id;
      mau.links.prev = prev.id;
    }
    prev = mau;
    hot.push(mau);
    byId.set(mau.id, mau);
    if (mau.modality === 'visual') hasVisual = true;
    const details: MauDetails = c.modality === 'visual' ? { caption: c.text } : { fullText: c.text };
    await ctx.kv.set(mau.rawPointer, details as never);
    const m = mau.metadata;
    bm25.add(String(label), [mau.summary, (details.fullText ?? details.caption ?? '').slice(0, 500), ...m.persons, ...m.entities, ...m.keywords].join(' '));
    items.push({ label, vector: vectors[j] as number[], tags: m.tags });
    if (config.graph.enabled) graph.add(extracted, label);
  }
  await dense.addMany(items);
}

interface Hit {
  mau: Mau;
  score: number;
  source: 'dense' | 'bm25' | 'graph';
}

async function search(ctx: MemoContext, taskText: string): Promise<{ hits: Hit[]; entities: string[] }> {
  const q = parseQuery(taskText, ctx.now(), hasVisual);
  const k = strategyTopK(q, config);
  // Filters run inside both searches (released: applied after a global top-2k, which starves small subsets).
  const allowed = (m: Mau) =>
    m.status === 'active' &&
    (!q.modality || m.modality === q.modality) &&
    (!q.timeRange || (m.timestamp >= q.timeRange.from && m.timestamp < q.timeRange.to));
  const filtered = q.modality || q.timeRange;
  const labels = filtered ? hot.filter(allowed).map((m) => m.label) : undefined;
  const hits: Hit[] = [];
  const seen = new Set<string>();
  if (dense && (!labels || labels.length)) {
    const found = await dense.searchText(q.text, k * 2, labels ? { labels } : undefined);
    for (const h of found) {
      const mau = hot[h.label];
      if (!mau || h.score < config.similarityThreshold || hits.length >= k) continue;
      hits.push({ mau, score: h.score, source: 'dense' });
      seen.add(mau.id);
    }
  }
  // Set-union: dense order is kept; BM25-only hits are appended with a scaled score.
  const kb = Math.max(config.bm25MinK, Math.floor(k / 2));
  for (const h of bm25.search(q.text, kb, filtered ? (id) => allowed(hot[Number(id)] as Mau) : undefined)) {
    const mau = hot[Number(h.id)];
    if (!mau || seen.has(mau.id)) continue;
    hits.push({ mau, score: h.score * config.bm25Weight, source: 'bm25' });
    seen.add(mau.id);
  }
  let entities: string[] = [];
  if (config.graph.enabled) {
    const g = graph.retrieve(q.text, offlineEntities(q.text).entities.map((e) => e.name), config.graph.maxUnits + hits.length);
    entities = g.entities;
    if (config.graph.mergeIntoResults) {
      let added = 0;
      for (const label of g.units) {
        if (added >= config.graph.maxUnits) break;
        const mau = hot[label];
        if (!mau || seen.has(mau.id) || !allowed(mau)) continue;
        hits.push({ mau, score: 0, source: 'graph' });
        seen.add(mau.id);
        added++;
      }
    }
  }
  return { hits, entities };
}

export default defineMemo({
  async update(episode, ctx) {
    await ingest(episode, ctx);
  },

  async retrieve(task, ctx) {
    if (hot.length === 0) return { text: '', images: [] };
    const { hits, entities } = await search(ctx, task.instruction);
    const budget = config.tokenBudget !== null ? Math.min(config.tokenBudget * 4, ctx.budget.maxChars) : ctx.budget.maxChars;
    const fmt = { showTime: config.format.showTime, fullTextChars: config.format.fullTextChars };
    // Pyramid level 1: summaries, taken in rank order (code) or by similarity per character (paper) while they fit.
    const order = config.expansion === 'greedy'
      ? [...hits].sort((a, b) => b.score / (b.mau.summary.length + 60) - a.score / (a.mau.summary.length + 60))
      : hits;
    const chosen: Hit[] = [];
    let used = 0;
    for (const h of order) {
      const cost = formatUnit(chosen.length + 1, h.mau, undefined, fmt).length + 2;
      if (used + cost > budget) continue;
      chosen.push(h);
      used += cost;
    }
    chosen.sort((a, b) => hits.indexOf(a) - hits.indexOf(b));
    // Level 2: details — units above the auto-expand score first, then in rank order, at most maxExpanded. The
    // details of a better-ranked unit are worth more than the summaries of the worst-ranked ones, which give way.
    const details = new Map<string, MauDetails>();
    const expandable = [...chosen].sort((a, b) => Number(b.score > config.autoExpandThreshold) - Number(a.score > config.autoExpandThreshold));
    const cost = (h: Hit) => formatUnit(0, h.mau, details.get(h.mau.id), fmt).length + 2;
    for (const h of expandable) {
      if (details.size >= config.maxExpanded) break;
      if (!chosen.includes(h)) continue;
      const d = (await ctx.kv.get(h.mau.rawPointer)) as MauDetails | undefined;
      const full = d?.fullText ?? d?.caption;
      if (!d || !full || full === h.mau.summary) continue;
      const extra = formatUnit(0, h.mau, d, fmt).length - formatUnit(0, h.mau, undefined, fmt).length;
      const rank = chosen.indexOf(h);
      while (used + extra > budget && chosen.length - 1 > rank && !details.has((chosen[chosen.length - 1] as Hit).mau.id)) {
        used -= cost(chosen.pop() as Hit);
      }
      if (used + extra > budget) continue;
      details.set(h.mau.id, d);
      used += extra;
    }
    const blocks = chosen.map((h, i) => formatUnit(i + 1, h.mau, details.get(h.mau.id), fmt));
    const images = chosen
      .map((h) => h.mau.image)
      .filter((img): img is ImageRef => img !== undefined)
      .slice(0, ctx.budget.maxImages);
    return {
      text: blocks.join('\n\n'),
      images,
      metadata: {
        ids: chosen.map((h) => h.mau.id),
        scores: chosen.map((h) => Number(h.score.toFixed(4))),
        sources: chosen.map((h) => h.source),
        level: chosen.map((h) => (details.has(h.mau.id) ? 'details' : 'summary')),
        graphEntities: entities.slice(0, 10),
        charsEstimate: used,
      },
    };
  },
});
