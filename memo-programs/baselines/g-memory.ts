// G-Memory-style hierarchical memory in a graphology graph with three tiers:
//   insight nodes      — distilled notes (memo model, or offline the extractive fallback) linked to their episodes;
//   task-record nodes  — one per episode (instruction, outcome), linked to similar task records;
//   interaction traces — one node per step, linked to its task record and to the next step.
// Retrieve finds the task records nearest to the new task, walks to their neighbouring records (1 hop), ranks
// their traces by similarity to the task, and returns insights first, then the best traces in episode order.
import { defineMemo, type VectorIndex } from 'automemo/contract';
import { type EpisodeHeading, episodeHeading, episodeUnits, isDialogue, renderUnits, type Unit } from 'automemo/lib/units';
import Graph from 'graphology';

export const config = {
  /** Task records found by similarity. */
  topRecords: 4,
  /** Similar-record edges added per new record. */
  linkRecords: 2,
  recordLinkMin: 0.5,
  topTraces: 40,
  maxInsightChars: 1200,
};

const graph = new Graph({ type: 'undirected', multi: false });
let recordIndex: VectorIndex | undefined;
let traceIndex: VectorIndex | undefined;
const records: string[] = [];
const traces: Unit[] = [];
const headings = new Map<string, EpisodeHeading>();

export default defineMemo({
  async update(episode, ctx) {
    const rec = `task:${episode.taskId}`;
    graph.mergeNode(rec, { tier: 'task', instruction: episode.instruction, success: episode.outcome.success });
    headings.set(episode.taskId, episodeHeading(episode, headings.size));
    const units = episodeUnits(episode);
    const texts = units.map((u) => u.text);
    const vectors = await ctx.embed([episode.instruction + (isDialogue(episode) ? `\n${texts.join('\n').slice(0, 2000)}` : ''), ...texts]);
    const dim = vectors[0]?.length ?? 512;
    recordIndex ??= await ctx.vectors.create({ dim, space: 'cosine', maxElements: 256 });
    traceIndex ??= await ctx.vectors.create({ dim, space: 'cosine', maxElements: 4096 });
    // Link to the most similar earlier task records.
    if (records.length) {
      for (const hit of await recordIndex.search(vectors[0] as number[], config.linkRecords)) {
        if (hit.score >= config.recordLinkMin) graph.mergeEdge(rec, records[hit.label] as string, { kind: 'similar' });
      }
    }
    await recordIndex.add(records.length, vectors[0] as number[]);
    records.push(rec);
    let prev: string | undefined;
    await traceIndex.addMany(units.map((_, j) => ({ label: traces.length + j, vector: vectors[j + 1] as number[], tags: [episode.taskId] })));
    for (const u of units) {
      const node = `trace:${u.id}`;
      graph.mergeNode(node, { tier: 'trace', label: traces.length });
      graph.mergeEdge(rec, node, { kind: 'trace' });
      if (prev) graph.mergeEdge(prev, node, { kind: 'next' });
      prev = node;
      traces.push(u);
    }
    // Insight tier: a distilled note per episode.
    const reply = await ctx.llm.chat({
      messages: [
        { role: 'system', content: 'Write the 2-3 most reusable insights from this episode (facts, strategies or lessons), one per line.' },
        { role: 'user', content: `${episode.instruction}\n${texts.join('\n').slice(0, 4000)}` },
      ],
      maxTokens: 200,
    });
    if (reply.text.trim()) {
      const insight = `insight:${episode.taskId}`;
      graph.mergeNode(insight, { tier: 'insight', text: reply.text.trim().slice(0, config.maxInsightChars) });
      graph.mergeEdge(insight, rec, { kind: 'supports' });
    }
  },
  async retrieve(task, ctx) {
    if (!recordIndex || !traceIndex || records.length === 0) return { text: '', images: [] };
    const found = await recordIndex.searchText(task.instruction, config.topRecords);
    const chosen = new Set<string>();
    for (const h of found) {
      const rec = records[h.label] as string;
      chosen.add(rec);
      graph.forEachNeighbor(rec, (n, attrs) => {
        if (attrs.tier === 'task') chosen.add(n);
      });
    }
    const episodes = [...chosen].map((r) => r.slice('task:'.length));
    const insights = [...chosen]
      .flatMap((r) => graph.neighbors(r).filter((n) => graph.getNodeAttribute(n, 'tier') === 'insight'))
      .map((n) => graph.getNodeAttribute(n, 'text') as string);
    const insightText = insights.length ? `Insights:\n${insights.join('\n')}`.slice(0, Math.floor(ctx.budget.maxChars / 3)) : '';
    const hits = await traceIndex.searchText(task.instruction, config.topTraces, { anyTags: episodes });
    const ranked = hits.map((h) => traces[h.label]).filter((u): u is Unit => u !== undefined);
    const body = renderUnits(ranked, headings, ctx.budget.maxChars - insightText.length - 2);
    const text = [insightText, body.text].filter(Boolean).join('\n\n');
    return { text, images: [], metadata: { records: episodes, traces: body.shown.map((u) => u.id) } };
  },
});
