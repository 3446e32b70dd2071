// The memo-program contract: the only types and values a memo program may import from automemo.
// A program is `export default defineMemo({ update, retrieve, ... })`. It runs in a V8 isolate with
// no ambient authority: everything it can reach of the outside world is the `MemoContext` it is given.

/** Plain JSON, the only shape that crosses the sandbox boundary. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An image the host holds. Programs see references; bytes stay on the host and are reached through `ctx.images`. */
export interface ImageRef {
  id: string;
  mime: string;
  width?: number;
  height?: number;
  caption?: string;
}

export interface Observation {
  text?: string;
  url?: string;
  images?: ImageRef[];
}

export interface Step {
  index: number;
  observation?: Observation;
  thought?: string;
  action: string;
  result?: string;
  error?: string;
}

export interface Outcome {
  /** Reward in [0, 1]. */
  reward: number;
  success: boolean;
  note?: string;
}

/** A finished episode, given to `update`. */
export interface EpisodeRecorder {
  taskId: string;
  env: string;
  domain?: string;
  instruction: string;
  initial: Observation;
  steps: Step[];
  answer?: string;
  outcome: Outcome;
  meta: { [key: string]: Json };
}

/** What is known before a task starts, given to `retrieve`. Ground truth never appears here. */
export type PartialRecorder = Omit<EpisodeRecorder, 'steps' | 'answer' | 'outcome'>;

/** What `retrieve` returns: injected once into the execution agent before its first turn. */
export interface MemoryPayload {
  text: string;
  images: ImageRef[];
  metadata?: Json;
}

export type VectorSpace = 'cosine' | 'ip' | 'l2';

export interface VectorIndexOptions {
  dim: number;
  /** Default 'cosine'. */
  space?: VectorSpace;
  /** Initial capacity; the index grows on demand up to the host's quota. */
  maxElements?: number;
}

export interface VectorHit {
  label: number;
  /** hnswlib distance: 1 - cosine for 'cosine', 1 - dot for 'ip', squared L2 for 'l2'. */
  distance: number;
  /** Larger is more similar: cosine or dot similarity, or -distance for 'l2'. */
  score: number;
}

export interface VectorSearchOptions {
  /** Only labels in this list are considered; applied inside the graph search, not after it. */
  labels?: number[];
  /** Only items carrying at least one of these tags are considered; applied inside the search. */
  anyTags?: string[];
  /** Search breadth; default max(k, 64). */
  ef?: number;
}

/** An HNSW index owned by the host (hnswlib-node), reached by handle. */
export interface VectorIndex {
  readonly handle: number;
  readonly dim: number;
  readonly space: VectorSpace;
  add(label: number, vector: number[], tags?: string[]): Promise<void>;
  addMany(items: { label: number; vector: number[]; tags?: string[] }[]): Promise<void>;
  /** Embeds `text` with ctx.embed's model on the host and adds it; the vector never crosses the sandbox. */
  addText(label: number, text: string, tags?: string[]): Promise<void>;
  /**
   * The k nearest items, nearest first. k may be 0 to 10,000 (more is an error); a k above the items the index holds
   * returns them all, and with labels or anyTags only matching items come back, so fewer than k is normal.
   */
  search(vector: number[], k: number, options?: VectorSearchOptions): Promise<VectorHit[]>;
  /** Embeds `text` on the host and searches with it (as search does): one call instead of embed() + search(). */
  searchText(text: string, k: number, options?: VectorSearchOptions): Promise<VectorHit[]>;
  remove(label: number): Promise<void>;
  size(): Promise<number>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object reply. */
  json?: boolean;
}

export interface ChatResult {
  text: string;
  /** True when no memo model is configured and the deterministic extractive fallback answered. */
  offline: boolean;
  model: string;
  usage: { promptTokens: number; completionTokens: number };
}

export interface TextResult {
  text: string;
  offline: boolean;
  /** Where the text came from: the image's own caption, OCR, or a vision model. */
  source: 'caption' | 'ocr' | 'model';
}

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
}

/** Host primitives. All are metered (calls, bytes, ms) and under quotas; errors reject with a message. */
export interface MemoContext {
  /** Unit-length text embeddings (offline: Universal Sentence Encoder lite, 512-d). */
  embed(texts: string[]): Promise<number[][]>;
  /** Unit-length image embedding (offline: a pixel-layout vector, not a semantic one). */
  embedImage(image: ImageRef): Promise<number[]>;
  vectors: {
    create(options: VectorIndexOptions): Promise<VectorIndex>;
    /**
     * An index this memory already holds, by its handle: what `restore()` uses to get back the indices its
     * `snapshot()` named (the host keeps them with the rest of a saved memory).
     */
    open(handle: number): Promise<VectorIndex>;
  };
  llm: {
    chat(request: ChatRequest): Promise<ChatResult>;
  };
  images: {
    caption(image: ImageRef): Promise<TextResult>;
    /** 64-bit DCT perceptual hash as 16 hex digits. */
    phash(image: ImageRef): Promise<string>;
    thumbnail(image: ImageRef, options?: { maxSide?: number }): Promise<ImageRef>;
    ocr(image: ImageRef): Promise<OcrResult>;
  };
  /** Durable key-value state: part of the memory that is exported with the program. */
  kv: {
    get(key: string): Promise<Json | undefined>;
    set(key: string, value: Json): Promise<void>;
    delete(key: string): Promise<boolean>;
    keys(prefix?: string): Promise<string[]>;
  };
  log(...args: unknown[]): void;
  /** What one retrieve() may return; text beyond it is cut by the harness and flagged. */
  readonly budget: { readonly maxChars: number; readonly maxImages: number };
  /** Virtual clock in ms since the epoch: deterministic, strictly increasing. */
  now(): number;
  /** Seeded uniform random number in [0, 1). */
  random(): number;
}

export interface MemoProgram {
  /** Called once, before the first update or retrieve. */
  init?(ctx: MemoContext): void | Promise<void>;
  update(episode: EpisodeRecorder, ctx: MemoContext): void | Promise<void>;
  retrieve(task: PartialRecorder, ctx: MemoContext): MemoryPayload | Promise<MemoryPayload>;
  /** In-isolate state worth keeping beyond `kv` and vector indices, as JSON. */
  snapshot?(ctx: MemoContext): Json | Promise<Json>;
  restore?(state: Json, ctx: MemoContext): void | Promise<void>;
}

/** Marks the default export of a memo program; returns the program unchanged. */
export function defineMemo<P extends MemoProgram>(program: P): P {
  return program;
}
