// The memory a retrieval pipeline reads: units cut from episodes (whole steps, steps found by the text around them,
// or whole episodes), each kept whole with its source episode, position and time, indexed lexically (BM25 over
// stemmed content words), densely (ctx.embed + ctx.vectors), or both. Names (speakers, capitalised words) map to
// the units that mention them, for per-entity queries and graph expansion.
import type { EpisodeRecorder, Json, MemoContext, VectorIndex } from '../contract.ts';
import { Bm25Index } from './bm25.ts';
import { stemmedTokens } from './stem.ts';
import { ENGLISH_STOPWORDS } from './tokenize.ts';
import { stepText } from './units.ts';

/** What one unit is: a step, a step found by the `window` steps around it, or a whole episode. */
export type UnitKind = 'steps' | 'windows' | 'episodes';
/** Which indexes a store builds. */
export type IndexKind = 'bm25' | 'dense' | 'both';
/**
 * What a unit is found by: its own text (and, for windows, the steps around it), or the instruction of the task it
 * came from — past tasks found by how alike they are to this one, as trajectory retrieval finds them (a step is
 * found by its task's instruction and its own text).
 */
export type FindBy = 'content' | 'instruction';

export interface StoreOptions {
  /** Default 'steps'. */
  units?: UnitKind;
  /** Steps either side that a 'windows' unit is found by (default 1). */
  window?: number;
  /** Default 'both'. */
  index?: IndexKind;
  /** Default 'content'. */
  findBy?: FindBy;
  /** Longest unit kept, in characters; longer units are clipped at the end (default 4000). */
  maxUnitChars?: number;
  /** Most units kept; later ones are dropped (default 50,000). */
  maxUnits?: number;
}

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
  /** Stemmed content tokens of the text the unit is found by. */
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
}

function str(v: Json | undefined): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** Per-step ids and speakers an episode may carry in meta.turns (dialogues do). */
function stepMeta(ep: EpisodeRecorder, i: number): { id: string; speaker: string } {
  const turns = ep.meta?.turns;
  const t = Array.isArray(turns) ? turns[i] : undefined;
  const o = t && typeof t === 'object' && !Array.isArray(t) ? (t as { [k: string]: Json }) : {};
  return { id: str(o.id) || `${ep.taskId}#${i}`, speaker: str(o.speaker) };
}

/** Characters of each step a past task's episode unit shows: the action and the start of what it returned. */
export const PROCEDURE_STEP_CHARS = 240;

const clipLine = (text: string, n: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

/**
 * An episode as one readable block: task, outcome, steps, answer. A dialogue keeps every turn whole; a past task is
 * shown as its procedure — each step's action with the start of its result (a page or a tool's whole output would
 * leave no room for the steps after it, which are what an agent follows).
 */
export function episodeText(ep: EpisodeRecorder, maxChars: number): string {
  const dialogue = ep.meta?.kind === 'dialogue';
  const lines = [dialogue ? ep.instruction : `Task: ${ep.instruction} — ${ep.outcome.success ? 'succeeded' : 'failed'} (reward ${ep.outcome.reward.toFixed(2)})`];
  for (const s of ep.steps) lines.push(dialogue ? stepText(s) : `${s.index + 1}. ${clipLine(stepText(s), PROCEDURE_STEP_CHARS)}`);
  if (ep.answer !== undefined) lines.push(`Answer: ${ep.answer}`);
  const text = lines.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** The units of one episode as plain data: what is shown and what it is found by. */
export function extractUnits(ep: EpisodeRecorder, kind: UnitKind, window: number, maxChars: number, findBy: FindBy = 'content'): { id: string; speaker: string; text: string; searchText: string }[] {
  const byTask = findBy === 'instruction';
  if (kind === 'episodes') {
    const text = episodeText(ep, maxChars);
    return [{ id: ep.taskId, speaker: '', text, searchText: byTask ? ep.instruction : text }];
  }
  const texts = ep.steps.map((s) => {
    const t = stepText(s);
    return t.length > maxChars ? `${t.slice(0, maxChars - 1)}…` : t;
  });
  return texts.map((text, i) => {
    const around = kind === 'windows' ? texts.slice(Math.max(0, i - window), i + window + 1).join(' ') : text;
    return { ...stepMeta(ep, i), text, searchText: byTask ? `${ep.instruction}\n${around}` : around };
  });
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

export class UnitStore {
  /** Every unit in the order added: a unit's label is its index here (0, 1, 2, …). */
  readonly units: StoredUnit[] = [];
  readonly sources: SourceEpisode[] = [];
  /** The lexical index: a document's id is its unit's label as a string, so Number(hit.id) is the label. */
  readonly bm25 = new Bm25Index();
  /** The dense index (its labels are unit labels); undefined until a vector is added (index 'bm25', or embedding failed). */
  dense: VectorIndex | undefined;
  /** Lower-cased name → labels of the units that say it or are said by it. */
  readonly names = new Map<string, number[]>();
  /** Lower-cased speaker names (and their first names). */
  readonly speakers = new Set<string>();
  readonly options: Required<StoreOptions>;

  constructor(options: StoreOptions = {}) {
    this.options = { units: 'steps', window: 1, index: 'both', findBy: 'content', maxUnitChars: 4000, maxUnits: 50_000, ...options };
  }

  /** Adds an episode's units to the indexes; embedding failures leave the lexical index working. */
  async add(ep: EpisodeRecorder, ctx: MemoContext): Promise<void> {
    const o = this.options;
    const room = o.maxUnits - this.units.length;
    if (room <= 0) return;
    const width = Math.max(0, Math.min(o.window, 10));
    const extracted = extractUnits(ep, o.units, width, o.maxUnitChars, o.findBy).slice(0, room);
    const source: SourceEpisode = {
      taskId: ep.taskId,
      instruction: ep.instruction,
      success: ep.outcome.success,
      reward: ep.outcome.reward,
      dialogue: ep.meta?.kind === 'dialogue',
      time: ctx.now(),
      labels: [],
    };
    const sourceIndex = this.sources.length;
    this.sources.push(source);
    const added: StoredUnit[] = [];
    for (const [pos, u] of extracted.entries()) {
      const unit: StoredUnit = { label: this.units.length, id: u.id, source: sourceIndex, pos, speaker: u.speaker, text: u.text, tokens: stemmedTokens(u.searchText) };
      this.units.push(unit);
      source.labels.push(unit.label);
      added.push(unit);
      if (o.index !== 'dense') this.bm25.add(String(unit.label), unit.tokens);
      const names = namesIn(u.text);
      if (u.speaker) {
        const key = u.speaker.toLowerCase();
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
    }
    if (o.index === 'bm25') return;
    // An episode unit is found by its own text (or its instruction). A step or window is found by the sum of its
    // steps' vectors (and its task's instruction's, when found by it): each step and instruction is embedded once,
    // from the same cache whatever the options — not the window or instruction-prefixed text again for every width.
    if (o.units === 'episodes') await this.embed(added, ctx, (u) => extracted[u.pos]?.searchText ?? u.text, 0);
    else await this.embed(added, ctx, (u) => u.text, o.units === 'windows' ? width : 0, o.findBy === 'instruction' ? ep.instruction : undefined);
  }

  /** Each unit's text embedded; a unit's vector is the sum of its own and `width` neighbours' either side, plus `also`'s. */
  private async embed(added: StoredUnit[], ctx: MemoContext, textOf: (u: StoredUnit) => string, width: number, also?: string): Promise<void> {
    if (!added.length) return;
    try {
      const texts = added.map((u) => textOf(u).slice(0, 2000));
      if (also !== undefined) texts.push(also.slice(0, 2000));
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
}
