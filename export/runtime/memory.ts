// A memory built by one memo program, outside any benchmark: the program runs in the same sandbox as in a search
// (its own isolate, the same limits, the same host primitives), starts from a saved memory, takes episodes and
// answers tasks in any order, and saves itself. Calls run one at a time, in the order they were made.
//
// Restoring: a program with snapshot() and restore() gets its kv, vector indices and snapshot back. Any other
// program keeps state in its own variables, which no host can read, so its memory is rebuilt by running update()
// again over the logged episodes, with their times and the saved embeddings (no agent and no model runs); the
// result is checked against the saved kv and vector sizes.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecorder, ImageRef, Json, PartialRecorder } from '../../memo-programs/contract.ts';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import { type CallResult, DEFAULT_LIMITS, ProgramInstance, type SandboxError } from '../../sandbox/isolate.ts';
import { applyBudget, checkPayload, type PayloadBudget } from '../../sandbox/payload.ts';
import type { TextEmbedder } from '../../sandbox/primitives/embed.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { closeHostServices, InstancePrimitives, type InstanceUsage } from '../../sandbox/primitives/index.ts';
import { DEFAULT_QUOTAS } from '../../sandbox/primitives/quotas.ts';
import { VectorStore } from '../../sandbox/primitives/vectors.ts';
import { createMemoryHost, type MemoryHost, roleModels } from './host.ts';
import {
  type CallOptions,
  CallOptionsSchema,
  type EpisodeInput,
  EpisodeInputSchema,
  type ImageInput,
  type MemoryOptions,
  MemoryOptionsSchema,
  parseInput,
  type TaskInput,
  TaskInputSchema,
} from './inputs.ts';
import { type Fingerprint, isMemoryDir, kvFingerprint, type LoggedEpisode, type Manifest, MEMORY_CAPS, MEMORY_FORMAT, readMemoryDir, type ReadMemory, writeMemoryDir } from './memory-dir.ts';
import { inspectMemoryDir, recoverInterruptedSave } from './memory-target.ts';
import { asBuffer } from '../../foundation/bytes.ts';
import type { PackageInfo } from './package-info.ts';

/** What the package (or the export) knows about the program it runs. */
export interface MemorySetup {
  program: CompiledProgram;
  node: string;
  /** Environment name given to episodes that name none. */
  env: string;
  /** The environment's payload budget, the default of retrieve(). */
  budget: PayloadBudget;
  /** The run's seed, for a memory that starts empty. */
  seed: number;
  /** The memory to start from when options.memoryDir holds none (the package's memory/); null: empty. */
  builtIn: string | null;
  /** The embedder under the memory's cache (default: the embedding role's model, or offline USE-lite). */
  innerEmbedder?: TextEmbedder;
  /** An image store to share (the export's environment puts its episodes' images there). */
  images?: ImageStore;
  /** What the package records about its run, node and scores (none while the export builds the memory). */
  info?: PackageInfo;
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
  /** fresh: started empty; snapshot: state loaded; replay: update() ran again over the logged episodes. */
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
  /** Episodes in the memory (built in and added). */
  episodes: number;
  /** Episodes added since this memory was opened. */
  added: number;
  kv: { keys: number; bytes: number };
  vectors: { handle: number; size: number }[];
  images: number;
  restored: Restored;
  models: { embed: string; memo: string };
  usage: InstanceUsage;
}

const describe = (e: SandboxError) => `${e.message}${e.location && !e.message.includes(e.location) ? ` (at ${e.location})` : ''}`;

function unwrap<T>(r: CallResult<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${describe(r.error)}`);
  return r.value;
}

/** An open memory. Calls run one at a time, in the order they were made. */
export class Memory {
  private queue: Promise<unknown> = Promise.resolve();

  /** False once the sandbox stopped (a CPU, wall-time or heap limit): no call can succeed after that. */
  get alive(): boolean {
    return this.instance.alive;
  }

  private added = 0;
  private clock: number;
  private closed = false;

  constructor(
    private readonly setup: MemorySetup,
    private readonly options: MemoryOptions,
    private readonly host: MemoryHost,
    private readonly prims: InstancePrimitives,
    private readonly instance: ProgramInstance,
    private readonly log: LoggedEpisode[],
    private readonly seed: number,
    readonly restored: Restored,
    clock: number,
  ) {
    this.clock = clock;
  }

  /** What the package records about the run, the node, its scores and this memory (package.json "automemo"). */
  about(): PackageInfo {
    if (!this.setup.info) throw new Error('this memory was not opened from an exported package: it has nothing to say about a run');
    return this.setup.info;
  }

  get budget(): PayloadBudget {
    return { ...this.setup.budget, ...this.options.budget };
  }

  /** Runs `fn` after every call made before it. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('this memory is closed'));
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async setClock(time: number): Promise<void> {
    this.clock = time;
    unwrap(await this.instance.setClock(time), 'setting the clock');
  }

  /** Stores inline image bytes and returns references; references must name images the memory holds. */
  private async images(list: ImageInput[] | undefined, where: string): Promise<ImageRef[] | undefined> {
    if (!list) return undefined;
    const out: ImageRef[] = [];
    for (const [i, img] of list.entries()) {
      if ('data' in img) {
        out.push(await this.host.services.images.put(Buffer.from(img.data, 'base64'), { ...(img.mime ? { mime: img.mime } : {}), ...(img.caption ? { caption: img.caption } : {}) }));
      } else {
        if (!this.host.services.images.has(img.id)) throw new TypeError(`${where}.images[${i}]: unknown image id "${img.id}"; pass the bytes as {data, mime}`);
        out.push(img);
      }
    }
    return out;
  }

  private async observation<T extends { images?: ImageInput[] }>(o: T, where: string): Promise<Omit<T, 'images'> & { images?: ImageRef[] }> {
    const images = await this.images(o.images, where);
    const { images: _drop, ...rest } = o;
    return images ? { ...rest, images } : rest;
  }

  /** Learns from a finished episode. Bad input rejects with a TypeError naming each problem. */
  async update(input: EpisodeInput, options?: CallOptions): Promise<{ ms: number }> {
    const parsed = parseInput(EpisodeInputSchema, input, 'update(episode)');
    const { time } = parseInput(CallOptionsSchema, options, 'update options') ?? {};
    return this.exclusive(async () => {
      const steps = [];
      for (const [i, s] of parsed.steps.entries()) {
        steps.push({ ...s, index: s.index ?? i, ...(s.observation ? { observation: await this.observation(s.observation, `steps[${i}].observation`) } : {}) });
      }
      const episode = { ...parsed, env: parsed.env ?? this.setup.env, initial: await this.observation(parsed.initial, 'initial'), steps } as EpisodeRecorder;
      const at = time ?? Date.now();
      await this.setClock(at);
      const r = await this.instance.update(episode);
      // Logged even when update() threw: whatever it changed before throwing is in the memory, and a rebuild
      // must reproduce it.
      if (this.instance.alive) {
        this.log.push({ time: at, episode });
        this.added++;
      }
      unwrap(r, 'update() failed');
      return { ms: Math.round(r.ms) };
    });
  }

  /** What the program returns for a task about to start, cut to the budget. Memory is read-only meanwhile. */
  async retrieve(input: TaskInput, options?: CallOptions): Promise<Retrieved> {
    const parsed = parseInput(TaskInputSchema, input, 'retrieve(task)');
    const { time } = parseInput(CallOptionsSchema, options, 'retrieve options') ?? {};
    return this.exclusive(async () => {
      const task = { ...parsed, env: parsed.env ?? this.setup.env, initial: await this.observation(parsed.initial, 'initial') } as PartialRecorder;
      await this.setClock(time ?? Date.now());
      this.prims.freeze(true);
      let r;
      try {
        r = await this.instance.retrieve(task);
      } finally {
        this.prims.freeze(false);
      }
      const wire = unwrap(r, 'retrieve() failed');
      const check = checkPayload(wire, this.budget, this.host.services.images);
      if (check.schemaIssues.length) throw new Error(`retrieve() returned an invalid payload: ${check.schemaIssues.join('; ')}`);
      const { payload, truncated } = applyBudget(check.payload, this.budget);
      return { text: payload.text, images: payload.images, ...(payload.metadata !== undefined ? { metadata: payload.metadata } : {}), truncated, ms: Math.round(r.ms) };
    });
  }

  /** An image the memory holds (from episodes, or made by the program), with its bytes (a Node Buffer). */
  image(id: string): { ref: ImageRef; bytes: Buffer } | undefined {
    const store = this.host.services.images;
    if (!store.has(id)) return undefined;
    const { ref, bytes } = store.get(id);
    return { ref, bytes: asBuffer(bytes) };
  }

  /** Sizes, primitive usage, the models, and how the memory was restored. */
  stats(): Promise<MemoryStats> {
    return this.exclusive(async () => ({
      node: this.setup.node,
      programHash: this.setup.program.hash,
      episodes: this.log.length,
      added: this.added,
      kv: { keys: this.prims.kv.size, bytes: this.prims.kv.usedBytes },
      vectors: this.prims.vectors.list(),
      images: this.host.services.images.size,
      restored: this.restored,
      models: this.host.services.modes,
      usage: this.prims.usage(),
    }));
  }

  /** Writes the memory to `dir` (default: the memoryDir it was created with); returns the folder. */
  save(dir?: string): Promise<string> {
    const target = dir ?? this.options.memoryDir;
    if (!target) return Promise.reject(new Error('save() needs a folder: pass one, or create the memory with { memoryDir }'));
    return this.exclusive(async () => {
      const m = this.instance.methods;
      const restore = m.snapshot === 'function' && m.restore === 'function' ? 'snapshot' : 'replay';
      const snapshot = restore === 'snapshot' ? unwrap(await this.instance.snapshot(), 'snapshot() failed') : undefined;
      const kv = this.prims.kv.entries();
      const manifest: Manifest = {
        format: MEMORY_FORMAT,
        savedAt: new Date().toISOString(),
        program: { node: this.setup.node, hash: this.setup.program.hash },
        restore,
        embedder: this.host.embedder.id,
        memo: this.host.services.modes.memo,
        seed: this.seed,
        clock: this.clock,
        episodes: this.log.length,
        images: this.host.services.images.size,
        fingerprint: kvFingerprint(kv, this.prims.vectors.list()),
      };
      writeMemoryDir(target, {
        manifest,
        episodes: this.log,
        kv,
        ...(snapshot !== undefined ? { snapshot } : {}),
        images: this.host.services.images.list(),
        vectors: (d) => this.prims.vectors.save(d),
        embeddings: (f) => this.host.embedder.writeFile(f),
      });
      return target;
    });
  }

  /** Stops the sandbox and the host's worker threads; the memory is gone unless saved. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = this.exclusive(async () => {
      this.instance.dispose();
      this.prims.dispose();
      await closeHostServices();
    });
    this.closed = true;
    return done;
  }
}

function sameState(a: Fingerprint, b: Fingerprint): boolean {
  return a.kvHash === b.kvHash && JSON.stringify(a.vectors) === JSON.stringify(b.vectors);
}

/** Whether a memory's embeddings file may be read whole (it is a cache: when not, texts are embedded again). */
function embeddingsProblem(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return `${file} is not a regular file`;
  if (stat.size > MEMORY_CAPS.embeddings) return `${file} is ${Math.round(stat.size / 2 ** 20)} MiB, over the cap of ${MEMORY_CAPS.embeddings / 2 ** 20} MiB`;
  return undefined;
}

/**
 * Opens a memory: from options.memoryDir when it holds one, else from the built-in memory, else empty. A memoryDir
 * that is neither missing, an empty folder, nor a memory automemo wrote is refused (MemoryDirError) before anything
 * runs; a saved memory is checked completely (every file, the vector indices against their files) before it is used.
 */
export async function openMemory(setup: MemorySetup, rawOptions: MemoryOptions = {}): Promise<Memory> {
  const options = parseInput(MemoryOptionsSchema, rawOptions, 'createMemory(options)');
  const started = performance.now();
  const notes: string[] = [];
  let own = options.memoryDir ? inspectMemoryDir(options.memoryDir) : undefined;
  if (options.memoryDir && own?.kind === 'missing') {
    const recovered = recoverInterruptedSave(options.memoryDir);
    if (recovered) {
      notes.push(recovered);
      own = inspectMemoryDir(options.memoryDir);
    }
  }
  const from = options.fresh ? null : options.memoryDir && own?.kind === 'memory' ? options.memoryDir : setup.builtIn && isMemoryDir(setup.builtIn) ? setup.builtIn : null;
  const saved: ReadMemory | undefined = from ? readMemoryDir(from) : undefined;
  if (saved && saved.manifest.program.hash !== setup.program.hash) {
    throw new Error(
      `${from} holds a memory of program ${saved.manifest.program.node} (${saved.manifest.program.hash.slice(0, 12)}); this package runs ${setup.node} (${setup.program.hash.slice(0, 12)})`,
    );
  }
  const quotas = { ...DEFAULT_QUOTAS, ...options.quotas };
  const host = createMemoryHost(roleModels(options.models), setup.innerEmbedder, setup.images);
  let mode: Restored['mode'] = saved ? saved.manifest.restore : 'fresh';
  if (mode === 'snapshot' && options.rebuild) mode = 'replay';
  if (saved && saved.manifest.embedder !== host.embedder.id) {
    // Vectors of another model cannot be searched with this one's: rebuild, embedding every text again.
    notes.push(`the memory was built with embedder ${saved.manifest.embedder}, this one uses ${host.embedder.id}: rebuilt by replay, embedding its texts again`);
    mode = 'replay';
  }
  // Checked whether or not they are loaded: a tampered memory is refused when it is opened, not at its first search.
  if (saved && mode !== 'snapshot') VectorStore.check(saved.vectorsDir, saved.vectors, quotas, saved.vectorsFile);
  if (saved) {
    const problem = embeddingsProblem(saved.embeddingsFile);
    if (problem) notes.push(`${problem}: its texts are embedded again as needed`);
    else host.embedder.loadFile(saved.embeddingsFile);
    for (const img of saved.images) await host.services.images.put(img.bytes, { mime: img.ref.mime, ...(img.ref.caption ? { caption: img.ref.caption } : {}) });
  }
  const prims = new InstancePrimitives(host.services, { ...(options.quotas ? { quotas: options.quotas } : {}), ...(options.onLog ? { onLog: options.onLog } : {}) });
  if (saved && mode === 'snapshot') {
    try {
      for (const [k, v] of saved.kv) {
        try {
          prims.kv.set(k, v);
        } catch (err) {
          throw new Error(`${join(from as string, 'kv.json')}: ${(err as Error).message}`, { cause: err });
        }
      }
      prims.vectors.load(saved.vectorsDir, saved.vectors, saved.vectorsFile);
    } catch (err) {
      prims.dispose();
      throw err;
    }
  }
  const seed = saved?.manifest.seed ?? options.seed ?? setup.seed;
  const budget = { ...setup.budget, ...options.budget };
  const clock = saved ? (mode === 'snapshot' ? saved.manifest.clock : (saved.episodes[0]?.time ?? saved.manifest.clock)) : Date.now();
  const start = await ProgramInstance.start(setup.program, prims, { limits: { ...DEFAULT_LIMITS, ...options.limits }, seed, budget, clockStart: clock });
  if (!start.ok) {
    prims.dispose();
    throw new Error(`the memo program did not start: ${describe(start.error)}`);
  }
  const instance = start.instance;
  const fail = (err: Error) => {
    instance.dispose();
    prims.dispose();
    return err;
  };
  const init = await instance.init();
  if (!init.ok) throw fail(new Error(`init() failed: ${describe(init.error)}`));
  const log: LoggedEpisode[] = [];
  let verified: boolean | undefined;
  if (saved && mode === 'snapshot') {
    await instance.setClock(saved.manifest.clock);
    const r = await instance.restore(saved.snapshot ?? null);
    if (!r.ok) throw fail(new Error(`restore() failed: ${describe(r.error)}`));
    log.push(...saved.episodes);
  } else if (saved) {
    let failed = 0;
    for (const entry of saved.episodes) {
      await instance.setClock(entry.time);
      const r = await instance.update(entry.episode);
      if (!instance.alive) throw fail(new Error(`rebuilding the memory stopped the sandbox at episode ${entry.episode.taskId}: ${r.ok ? 'unknown' : describe(r.error)}`));
      if (!r.ok) failed++;
      log.push(entry);
    }
    if (failed) notes.push(`${failed} of ${saved.episodes.length} episodes failed in update() while rebuilding (as they may have when first ingested)`);
    verified = sameState(kvFingerprint(prims.kv.entries(), prims.vectors.list()), saved.manifest.fingerprint);
    if (!verified) notes.push('the rebuilt kv or vector sizes differ from the saved ones: the program is not deterministic over its episodes');
  }
  const restored: Restored = { mode, from, episodes: log.length, ms: Math.round(performance.now() - started), notes, ...(verified !== undefined ? { verified } : {}) };
  const lastTime = log.at(-1)?.time ?? clock;
  return new Memory(setup, options, host, prims, instance, log, seed, restored, saved ? saved.manifest.clock : lastTime);
}
