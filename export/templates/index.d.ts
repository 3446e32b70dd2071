// Types of an agent memory exported by automemo: a memo program that runs in a V8 isolate (isolated-vm) with
// automemo's host primitives, starting from the memory built from its run's update episodes.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An image the memory holds; its bytes are reached with `memory.image(id)`. */
export interface ImageRef {
  id: string;
  mime: string;
  width?: number;
  height?: number;
  caption?: string;
}

/** An image given to the memory: a reference it already holds, or the bytes (base64). */
export type ImageInput = ImageRef | { data: string; mime?: string; caption?: string };

export interface Observation {
  text?: string;
  url?: string;
  images?: ImageInput[];
}

export interface Step {
  /** Default: its position. */
  index?: number;
  observation?: Observation;
  thought?: string;
  action: string;
  result?: string;
  error?: string;
}

/** A task about to start: what retrieve() is asked about. */
export interface TaskInput {
  taskId: string;
  /** Default: the environment the program was selected on. */
  env?: string;
  domain?: string;
  instruction: string;
  initial?: Observation;
  meta?: { [key: string]: Json };
}

/** A finished episode: what update() learns from. */
export interface EpisodeInput extends TaskInput {
  steps?: Step[];
  answer?: string;
  outcome: { reward: number; success: boolean; note?: string };
}

export interface ModelOption {
  model: string;
  /** Any OpenAI-compatible endpoint. */
  baseURL?: string;
  apiKey?: string;
  timeoutMs?: number;
}

export interface MemoryOptions {
  /** Where this memory lives: loaded from there when it holds a saved memory (else the packaged one); save() writes there. */
  memoryDir?: string;
  /** Start empty instead of from the packaged memory. */
  fresh?: boolean;
  /** Rebuild by replaying the logged episodes even when a snapshot could be restored. */
  rebuild?: boolean;
  /** Models of the program's ctx.llm / captions (memo) and ctx.embed (embedding); absent or null: offline. */
  models?: { memo?: ModelOption | null; embedding?: ModelOption | null };
  /** Sandbox limits: isolate heap cap (MB), CPU and wall-clock time per call, program load time. */
  limits?: { heapMb?: number; callCpuMs?: number; callWallMs?: number; loadMs?: number };
  /** Quotas on host primitives (embedding batches, vector bytes, kv bytes, model calls, ...). */
  quotas?: Partial<Record<'embedBatch' | 'embedTextChars' | 'embedCalls' | 'vectorHandles' | 'vectorBytes' | 'vectorDimMax' | 'kvBytes' | 'kvKeyChars' | 'llmCalls' | 'llmPromptChars' | 'imageCalls' | 'logBytes', number>>;
  /** Payload budget of retrieve(); default: the environment's. */
  budget?: { maxChars?: number; maxImages?: number };
  /** Seed of the program's Math.random and ctx.random (a saved memory keeps its own). */
  seed?: number;
  /** Receives the program's ctx.log lines. */
  onLog?: (line: string) => void;
}

/** Virtual time of a call in ms since the epoch (default: now). */
export interface CallOptions {
  time?: number;
}

export interface Retrieved {
  text: string;
  images: ImageRef[];
  metadata?: Json;
  /** The payload was cut to the budget. */
  truncated: boolean;
  ms: number;
}

export interface Restored {
  /** fresh: started empty; snapshot: kv, vectors and snapshot loaded; replay: update() ran again over the logged episodes. */
  mode: 'fresh' | 'snapshot' | 'replay';
  from: string | null;
  episodes: number;
  ms: number;
  /** replay only: the rebuilt kv and vector sizes equal the saved ones. */
  verified?: boolean;
  notes: string[];
}

export interface MemoryStats {
  node: string;
  programHash: string;
  episodes: number;
  added: number;
  kv: { keys: number; bytes: number };
  vectors: { handle: number; size: number }[];
  images: number;
  restored: Restored;
  models: { embed: string; memo: string };
  usage: Json;
}

export interface Memory {
  readonly restored: Restored;
  readonly budget: { maxChars: number; maxImages: number };
  /** Learns from a finished episode. */
  update(episode: EpisodeInput, options?: CallOptions): Promise<{ ms: number }>;
  /** What the memory returns for a task about to start, within the budget. */
  retrieve(task: TaskInput, options?: CallOptions): Promise<Retrieved>;
  /** Writes the memory to a folder (default: options.memoryDir); createMemory({ memoryDir }) resumes it. */
  save(dir?: string): Promise<string>;
  stats(): Promise<MemoryStats>;
  /** The bytes are a Node Buffer. */
  image(id: string): { ref: ImageRef; bytes: Uint8Array } | undefined;
  /** Stops the sandbox; unsaved changes are lost. */
  close(): Promise<void>;
}

/** What the package records about the run, the node and its scores (package.json "automemo"). */
export interface PackageInfo {
  version: string;
  run: { folder: string; createdAt: string; env: string; seed: number; selection: string };
  node: { id: string; kind: string; parent: string | null; description?: string; chosenBy: 'final' | 'lcb' | 'node' };
  scores: { validation: number | null; n: number; lcb: number | null; test: number | null };
  [key: string]: unknown;
}

/** The memory built from the run's update episodes, or the one saved in options.memoryDir. Node needs --no-node-snapshot. */
export function createMemory(options?: MemoryOptions): Promise<Memory>;

export function about(): PackageInfo;
