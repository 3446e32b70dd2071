// The memory a retrieval pipeline reads: units cut from episodes (whole steps, steps found by the text around them,
// whole episodes, or distilled items; see episode-units.ts and distill.ts), each kept whole with its source episode,
// position and time, indexed lexically (BM25), densely (ctx.embed + ctx.vectors), or both. Names (speakers,
// capitalised words) map to the units that mention them, for per-entity queries and graph expansion; an episode may
// also be filed under the entity it concerns (a customer, a site, a speaker), indexed as a whole (past tasks found by
// their instruction and linked to the most similar earlier ones, G-Memory's task records), and given insights.
import type { EpisodeRecorder, Json, MemoContext, VectorIndex } from '../contract.ts';
import { Bm25Index } from './bm25.ts';
import { distillItems, episodeInsight } from './distill.ts';
import { type EpisodeRendering, type ExtractedUnit, extractUnits, type FindBy, type UnitKind } from './episode-units.ts';
import { stemmedTokens } from './stem.ts';
import { ENGLISH_STOPWORDS, tokenize } from './tokenize.ts';
import { choice, fixed, flag, float, type GivenOptions, int, resolveOptions, type ResolvedOptions } from './tunables.ts';
import { stepText } from './units.ts';

export { episodeText, PROCEDURE_STEP_CHARS, extractUnits, type UnitKind, type FindBy, type EpisodeRendering } from './episode-units.ts';

/** Which indexes a store builds. */
export type IndexKind = 'bm25' | 'dense' | 'both';
/** Where an episode's entity comes from: a field of its meta, the names in its instruction, each unit's speaker. */
export type EntitySource = 'none' | 'meta' | 'names' | 'speaker';

/** The store's options, each declared once: default, hard bounds, the range a search tries (tunables.ts). */
export const STORE_OPTIONS = {
  /** What a unit is. */
  units: choice<UnitKind>('steps', ['steps', 'windows', 'episodes', 'items']),
  /** Steps either side that a 'windows' unit is found by. */
  window: int(1, [0, 10], [1, 3]),
  index: choice<IndexKind>('both', ['both', 'bm25', 'dense']),
  findBy: choice<FindBy>('content', ['content', 'instruction']),
  /** How a whole-episode unit reads. */
  episodeText: choice<EpisodeRendering>('procedure', ['procedure', 'trajectory']),
  /** The outcome's note (the checker's feedback) kept: a unit of its own after the steps, or a line of an episode unit. */
  notes: flag(false),
  /** The entity each episode (or unit) is filed under; with 'meta', the field `entityMeta` names. */
  entity: choice<EntitySource>('none', ['none', 'meta', 'names', 'speaker']),
  /** Episodes kept: all, or only those that succeeded. */
  keep: choice<'all' | 'successes'>('all', ['all', 'successes']),
  /** Longest unit shown, in characters; longer units are cut at the end. */
  maxUnitChars: int(4000, [100, 100_000], [600, 8000]),
  /** Most units kept; later ones are dropped. */
  maxUnits: fixed(int(50_000, [0, 1_000_000])),
  /** BM25's words: stemmed content words, or every word as the Unicode tokenizer gives it. */
  tokenizer: fixed(choice<'stemmed' | 'plain'>('stemmed', ['stemmed', 'plain'])),
  /** BM25 ties: by unit label, or by "<taskId>#<step index>" as the bm25 baseline orders them. */
  ties: fixed(choice<'label' | 'source'>('label', ['label', 'source'])),
  /** Units found by their whole text (true) or by what is shown of it. */
  indexFull: fixed(flag(false)),
  /** Characters of a unit's text embedded. */
  embedChars: fixed(int(2000, [100, 1_000_000], [500, 8000])),
  /** An index of whole episodes (by instruction; a dialogue by its first 2,000 characters too), for episodeSearch(). */
  episodeIndex: flag(false),
  /** Each episode linked to this many of the most similar earlier ones (at least linkMin alike). */
  linkEpisodes: int(2, [0, 20], [0, 5]),
  linkMin: float(0.5, [-1, 1], [0.2, 0.9]),
  /** Insights per episode from the memo model (offline: its extractive fallback), for insightsPreamble(). */
  insights: flag(false),
  insightChars: int(1200, [0, 20_000], [300, 2000]),
  /** Items: turns per offline fact item of a conversation; items the model writes per episode; transcript it reads. */
  itemWindow: int(3, [1, 50], [1, 8]),
  maxItems: int(6, [1, 50], [2, 10]),
  transcriptChars: int(6000, [500, 100_000], [2000, 12_000]),
};

export type StoreOptions = GivenOptions<typeof STORE_OPTIONS> & {
  /** With entity 'meta': the meta field that names an episode's (and a task's) entity, e.g. "customer". */
  entityMeta?: string;
};

export interface StoredUnit {
  label: number;
  /** The step's own id when the episode gives one (meta.turns[i].id), else `<taskId>#<i>` (i: its position in episode.steps). */
  id: string;
  /** Index of the source episode in `store.sources`. */
  source: number;
  /** Position inside the source. */
  pos: number;
  /** Who said or did it, when the episode says (meta.turns[i].speaker). */
  speaker: string;
  /** Shown whole in payloads. */
  text: string;
  /** The index's words of the text the unit is found by (stemmed content words, or plain words). */
  tokens: string[];
}

export interface SourceEpisode {
  taskId: string;
  instruction: string;
  success: boolean;
  reward: number;
  dialogue: boolean;
  /** ctx.now() when the episode was added (the episode's time where the environment sets one). */
  time: number;
  labels: number[];
  /** The outcome's note (the checker's feedback), '' when none. */
  note: string;
  /** Lower-cased entities the episode is filed under. */
  entities: string[];
  /** Sources linked to it by the episode index: its own links first, then later episodes that linked to it. */
  links: number[];
  /** Its insights ('' when none or not asked for). */
  insight: string;
}

function str(v: Json | undefined): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The element-wise sum of vectors of one length (cosine search needs no division). */
function sumOf(vectors: number[][]): number[] {
  const out = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] ?? 0);
  return out;
}

/** Capitalised words of a text (names, places), lower-cased; sentence-initial words count too. */
export function namesIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b\p{Lu}[\p{L}\p{M}'-]{2,}/gu)) out.add(m[0].toLowerCase().replace(/'s$/, ''));
  return [...out];
}

/** The entity a meta value names: trimmed, lower-cased, at most 200 characters. */
export const entityKey = (v: string) => v.trim().toLowerCase().slice(0, 200);

export class UnitStore {
  /** Every unit in the order added: a unit's label is its index here (0, 1, 2, …). */
  readonly units: StoredUnit[] = [];
  readonly sources: SourceEpisode[] = [];
  /** The lexical index: a document's id is its unit's label as a string, so Number(hit.id) is the label. */
  readonly bm25: Bm25Index;
  /** The dense index (its labels are unit labels); undefined until a vector is added (index 'bm25', or embedding failed). */
  dense: VectorIndex | undefined;
  /** With episodeIndex: whole episodes (its labels are source indexes). */
  episodes: VectorIndex | undefined;
  /** Lower-cased name → labels of the units that say it or are said by it. */
  readonly names = new Map<string, number[]>();
  /** Lower-cased speaker names (and their first names). */
  readonly speakers = new Set<string>();
  /** Lower-cased entity → labels of the units filed under it. */
  readonly entities = new Map<string, number[]>();
  readonly options: ResolvedOptions<typeof STORE_OPTIONS> & { entityMeta: string };
  /** Each unit's tie key for BM25 with ties 'source'. */
  private readonly keys: string[] = [];

  constructor(options: StoreOptions = {}) {
    this.options = { ...resolveOptions(STORE_OPTIONS, options), entityMeta: typeof options.entityMeta === 'string' ? options.entityMeta.slice(0, 100) : '' };
    const keyOf = (id: string) => this.keys[Number(id)] ?? id;
    this.bm25 = new Bm25Index(this.options.ties === 'source' ? { tieOrder: (a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0) } : {});
  }

  /** The words the lexical index compares, for a unit's text or a query. */
  tokens(text: string): string[] {
    return this.options.tokenizer === 'plain' ? tokenize(text) : stemmedTokens(text);
  }

  /** The entities an episode is filed under (before its units are known). */
  private entitiesOf(ep: EpisodeRecorder): string[] {
    const o = this.options;
    if (o.entity === 'meta' && o.entityMeta) {
      const v = entityKey(str(ep.meta?.[o.entityMeta]));
      return v ? [v] : [];
    }
    if (o.entity === 'names') return namesIn(ep.instruction).filter((n) => !ENGLISH_STOPWORDS.has(n));
    return [];
  }

  private async extract(ep: EpisodeRecorder, ctx: MemoContext): Promise<ExtractedUnit[]> {
    const o = this.options;
    if (o.units !== 'items') {
      return extractUnits(ep, { units: o.units, window: o.window, maxUnitChars: o.maxUnitChars, findBy: o.findBy, episodeText: o.episodeText, notes: o.notes, indexFull: o.indexFull });
    }
    const items = await distillItems(ep, ctx, { windowSteps: o.itemWindow, maxItems: o.maxItems, transcriptChars: o.transcriptChars });
    return items.map((item, k) => {
      const found = `${item.title}\n${item.content}`;
      return { id: `${ep.taskId}#item${k}`, speaker: '', text: `## ${found}`, searchText: found, embedText: found, step: -1 };
    });
  }

  /** Adds an episode's units to the indexes; embedding failures leave the lexical index working. */
  async add(ep: EpisodeRecorder, ctx: MemoContext): Promise<void> {
    const o = this.options;
    if (o.keep === 'successes' && !ep.outcome.success) return;
    const room = o.maxUnits - this.units.length;
    if (room <= 0) return;
    const extracted = (await this.extract(ep, ctx)).slice(0, room);
    const source: SourceEpisode = {
      taskId: ep.taskId,
      instruction: ep.instruction,
      success: ep.outcome.success,
      reward: ep.outcome.reward,
      dialogue: ep.meta?.kind === 'dialogue',
      time: ctx.now(),
      labels: [],
      note: typeof ep.outcome.note === 'string' ? ep.outcome.note : '',
      entities: this.entitiesOf(ep),
      links: [],
      insight: '',
    };
    const sourceIndex = this.sources.length;
    this.sources.push(source);
    const added: StoredUnit[] = [];
    for (const [pos, u] of extracted.entries()) {
      const unit: StoredUnit = { label: this.units.length, id: u.id, source: sourceIndex, pos, speaker: u.speaker, text: u.text, tokens: this.tokens(u.searchText) };
      this.units.push(unit);
      this.keys.push(u.step >= 0 ? `${ep.taskId}#${ep.steps[u.step]?.index ?? u.step}` : u.id);
      source.labels.push(unit.label);
      added.push(unit);
      if (o.index !== 'dense') this.bm25.add(String(unit.label), unit.tokens);
      this.file(unit, source);
    }
    if (o.entity === 'speaker') source.entities = [...new Set(added.map((u) => entityKey(u.speaker)).filter(Boolean))];
    if (o.index !== 'bm25') {
      // An episode or item is found by its own text (or its instruction). A step or window is found by the sum of its
      // steps' vectors (and its task's instruction's, when found by it): each step and instruction is embedded once,
      // from the same cache whatever the options — not the window or instruction-prefixed text again for every width.
      const width = o.units === 'windows' ? o.window : 0;
      const byTask = o.findBy === 'instruction' && (o.units === 'steps' || o.units === 'windows');
      await this.embed(added, ctx, (u) => extracted[u.pos]?.embedText ?? u.text, width, byTask ? ep.instruction : undefined);
    }
    if (o.episodeIndex) await this.indexEpisode(ep, ctx, sourceIndex);
    if (o.insights) source.insight = await episodeInsight(ep, ctx, o.insightChars);
  }

  /** Files a unit under the names it says (and its speaker's) and under its episode's entities. */
  private file(unit: StoredUnit, source: SourceEpisode): void {
    const names = namesIn(unit.text);
    if (unit.speaker) {
      const key = unit.speaker.toLowerCase();
      names.push(key);
      this.speakers.add(key);
      for (const part of key.split(/\s+/)) {
        if (part.length < 2) continue;
        this.speakers.add(part);
        names.push(part);
      }
    }
    for (const n of new Set(names)) {
      const list = this.names.get(n) ?? [];
      list.push(unit.label);
      this.names.set(n, list);
    }
    const entities = this.options.entity === 'speaker' ? (unit.speaker ? [entityKey(unit.speaker)] : []) : source.entities;
    for (const e of entities) {
      const list = this.entities.get(e) ?? [];
      list.push(unit.label);
      this.entities.set(e, list);
    }
  }

  /**
   * G-Memory's task record: the episode's instruction (a dialogue's with its first 2,000 characters) in the episode
   * index, linked to the `linkEpisodes` most similar earlier episodes at least `linkMin` alike.
   */
  private async indexEpisode(ep: EpisodeRecorder, ctx: MemoContext, sourceIndex: number): Promise<void> {
    const o = this.options;
    const text = ep.instruction + (ep.meta?.kind === 'dialogue' ? `\n${ep.steps.map(stepText).join('\n').slice(0, 2000)}` : '');
    try {
      const [vector] = await ctx.embed([text]);
      if (!vector?.length) return;
      this.episodes ??= await ctx.vectors.create({ dim: vector.length, space: 'cosine', maxElements: 256 });
      if (sourceIndex > 0 && o.linkEpisodes > 0) {
        for (const hit of await this.episodes.search(vector, o.linkEpisodes)) {
          const other = this.sources[hit.label];
          const own = this.sources[sourceIndex] as SourceEpisode;
          if (hit.score < o.linkMin || !other || own.links.includes(hit.label)) continue;
          own.links.push(hit.label);
          other.links.push(sourceIndex);
        }
      }
      await this.episodes.add(sourceIndex, vector);
    } catch (err) {
      ctx.log('episode indexing skipped:', String(err));
    }
  }

  /** Each unit's text embedded; a unit's vector is the sum of its own and `width` neighbours' either side, plus `also`'s. */
  private async embed(added: StoredUnit[], ctx: MemoContext, textOf: (u: StoredUnit) => string, width: number, also?: string): Promise<void> {
    if (!added.length) return;
    const cut = this.options.embedChars;
    try {
      const texts = added.map((u) => textOf(u).slice(0, cut));
      if (also !== undefined) texts.push(also.slice(0, cut));
      const own: number[][] = [];
      for (let i = 0; i < texts.length; i += 128) {
        const batch = texts.slice(i, i + 128);
        const vectors = await ctx.embed(batch);
        if (vectors.length !== batch.length || !vectors[0]?.length) return;
        own.push(...vectors);
      }
      const extra = also !== undefined ? own.pop() : undefined;
      const items = added.map((u, i) => ({ label: u.label, vector: sumOf([...own.slice(Math.max(0, i - width), i + width + 1), ...(extra ? [extra] : [])]) }));
      for (let i = 0; i < items.length; i += 128) await this.addVectors(items.slice(i, i + 128), ctx);
    } catch (err) {
      ctx.log('dense indexing skipped:', String(err));
    }
  }

  private async addVectors(items: { label: number; vector: number[] }[], ctx: MemoContext): Promise<void> {
    const dim = items[0]?.vector.length;
    if (!dim) return;
    this.dense ??= await ctx.vectors.create({ dim, space: 'cosine', maxElements: 4096 });
    await this.dense.addMany(items);
  }

  /** The unit at `offset` steps from `label` inside the same source, if any. */
  neighbour(label: number, offset: number): StoredUnit | undefined {
    const u = this.units[label];
    if (!u) return undefined;
    const at = (this.sources[u.source] as SourceEpisode).labels[u.pos + offset];
    return at === undefined ? undefined : this.units[at];
  }

  /** Names the text mentions that some stored unit mentions too. */
  knownNames(text: string): string[] {
    return namesIn(text).filter((n) => this.names.has(n) && !ENGLISH_STOPWORDS.has(n));
  }

  /** The entities a task concerns, as the store files them: its meta field, or the filed names it mentions. */
  taskEntities(task: { instruction?: string; meta?: { [key: string]: Json } }): string[] {
    const o = this.options;
    if (o.entity === 'meta') {
      const v = entityKey(str(task.meta?.[o.entityMeta]));
      return v && this.entities.has(v) ? [v] : [];
    }
    if (o.entity === 'none') return [];
    return namesIn(task.instruction ?? '').filter((n) => this.entities.has(n) && !ENGLISH_STOPWORDS.has(n));
  }
}
