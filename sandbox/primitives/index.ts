// The host side of MemoContext. `HostServices` are shared by all program instances (models, image store);
// `InstancePrimitives` hold one instance's state (vector indices, kv, usage) and answer its calls.
// Every call is validated, metered and quota-checked, and answers with an envelope — a host primitive never
// rejects into isolated-vm, which would surface as an unhandled rejection in the host process.
import OpenAI from 'openai';
import { z } from 'zod';
import { describeModel, type ResolvedModels } from '../../foundation/llm/models.ts';
import { type ChatService, createChatService } from './chat.ts';
import { closeEmbedPool, createTextEmbedder, type TextEmbedder } from './embed.ts';
import { EMBED_BACKENDS, embedBackendFromEnv } from './embed-backend.ts';
import { EmbedInfraError, EmbedOwner } from './embed-owner.ts';
import { caption, closeOcr, ImageStore, ocr, perceptualHash, pixelEmbedding, thumbnail } from './images.ts';
import { KvStore } from './kv.ts';
import { argBoundsIssue, DEFAULT_ARG_LIMITS } from './arg-bounds.ts';
import { approxBytes, Meter, type UsageReport } from './meter.ts';
import { DEFAULT_QUOTAS, QuotaError, type Quotas } from './quotas.ts';
import { VectorStore } from './vectors.ts';

export interface HostServices {
  embedder: TextEmbedder;
  chat: ChatService;
  images: ImageStore;
  /** What ran: printed with every report. */
  modes: { embed: string; memo: string };
}

export function createHostServices(models: Pick<ResolvedModels, 'memo' | 'embedding'>, images = new ImageStore()): HostServices {
  return {
    embedder: createTextEmbedder(models.embedding),
    chat: createChatService(models.memo),
    images,
    modes: {
      embed: models.embedding ? `model ${describeModel(models.embedding)}` : `offline (USE-lite 512-d, ${EMBED_BACKENDS[embedBackendFromEnv()].label})`,
      memo: models.memo ? `model ${describeModel(models.memo)}` : 'offline (extractive fallback)',
    },
  };
}

/** Releases worker threads held by shared services (OCR, embedding), so a process can exit promptly. */
export async function closeHostServices(): Promise<void> {
  await Promise.all([closeOcr(), closeEmbedPool()]);
}

const ImageArg = z.object({ id: z.string().min(1).max(200) }).passthrough();
const Label = z.number().int().min(0).max(2 ** 31 - 1);
// Coordinates are checked by the vector store, which names the bad one (NaN, Infinity, a string). Vectors from
// the isolate arrive as Float64Array (see the prelude); in-process callers pass arrays.
const Vector = z.custom<number[] | Float64Array>(
  (v) => (Array.isArray(v) || v instanceof Float64Array) && (v as { length: number }).length <= 65_536,
  { message: 'expected an array of at most 65,536 numbers' },
);

/**
 * A packed array of doubles, which hnswlib and the checks read fastest. An indexed loop: Array.from walks the
 * iterator protocol and is ~15x slower on a 512-d vector.
 */
function plainVector(v: number[] | Float64Array | Float32Array): number[] {
  if (Array.isArray(v)) return v;
  const out: number[] = [];
  for (let i = 0; i < v.length; i++) out[i] = v[i] as number;
  return out;
}
const Tags = z.array(z.string().max(200)).max(64);
// Every length has a ceiling in the schema too (argBoundsIssue enforces the same ones before zod runs); quotas
// such as embedBatch or kvKeyChars, which a user may change, are checked where the work happens.
const Text = z.string().max(DEFAULT_ARG_LIMITS.maxChars);
const Labels = z.array(Label).max(DEFAULT_ARG_LIMITS.maxArrayLength);
const SearchOptions = z
  .object({ labels: Labels.optional(), anyTags: Tags.optional(), ef: z.number().int().min(1).max(10_000).optional() })
  .strict()
  .optional()
  .nullable();

const schemas = {
  embed: z.tuple([z.array(Text).max(DEFAULT_ARG_LIMITS.maxArrayLength)]),
  embedImage: z.tuple([ImageArg]),
  'vectors.create': z.tuple([
    z
      .object({
        dim: z.number().int(),
        space: z.enum(['cosine', 'ip', 'l2']).optional(),
        maxElements: z.number().int().positive().optional(),
      })
      .strict(),
  ]),
  'vectors.add': z.tuple([
    z.number().int(),
    z.array(z.object({ label: Label, vector: Vector, tags: Tags.optional().nullable() }).strict()).max(DEFAULT_ARG_LIMITS.maxArrayLength),
  ]),
  'vectors.search': z.tuple([z.number().int(), Vector, z.number().int().min(0).max(10_000), SearchOptions]),
  'vectors.addText': z.tuple([z.number().int(), Label, Text, Tags.optional().nullable()]),
  'vectors.searchText': z.tuple([z.number().int(), Text, z.number().int().min(0).max(10_000), SearchOptions]),
  'vectors.remove': z.tuple([z.number().int(), Label]),
  'vectors.size': z.tuple([z.number().int()]),
  'vectors.open': z.tuple([z.number().int()]),
  'llm.chat': z.tuple([
    z
      .object({
        messages: z
          .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: Text }).strict())
          .min(1)
          .max(1000),
        maxTokens: z.number().int().positive().max(32_000).optional(),
        temperature: z.number().min(0).max(2).optional(),
        json: z.boolean().optional(),
      })
      .strict(),
  ]),
  'images.caption': z.tuple([ImageArg]),
  'images.phash': z.tuple([ImageArg]),
  'images.thumbnail': z.tuple([
    ImageArg,
    z.object({ maxSide: z.number().int().min(8).max(2048).optional() }).strict().optional().nullable(),
  ]),
  'images.ocr': z.tuple([ImageArg]),
  'kv.get': z.tuple([Text]),
  'kv.set': z.tuple([Text, Text]),
  'kv.delete': z.tuple([Text]),
  'kv.keys': z.tuple([Text]),
  log: z.tuple([Text]),
} as const;

export type PrimitiveName = keyof typeof schemas;
const IMAGE_PRIMITIVES = ['embedImage', 'images.caption', 'images.phash', 'images.thumbnail', 'images.ocr'];
export type Envelope = { ok: true; value: unknown } | { ok: false; error: string };

export interface InstanceOptions {
  quotas?: Partial<Quotas>;
  /** Where ctx.log lines go (default: kept in memory for the report). */
  onLog?: (line: string) => void;
}

export class InstancePrimitives {
  readonly meter = new Meter();
  readonly kv: KvStore;
  readonly vectors: VectorStore;
  readonly logs: string[] = [];
  private readonly quotas: Quotas;
  /** Primitive failures caused by an upstream service (API errors, timeouts): not the program's fault. */
  infraFailures = 0;
  /** Tokens spent by ctx.llm.chat on a real model (the offline fallback spends none). */
  readonly llmTokens = { prompt: 0, completion: 0 };
  private frozen = false;
  private logBytes = 0;
  private droppedLogs = 0;
  private droppedInIsolate = 0;

  /** Whose embedding work this is: it is cancelled when the instance is disposed. */
  readonly embedOwner = new EmbedOwner();
  /** Embed calls (embed, vectors.addText, vectors.searchText) waiting on the embedder. */
  private embedsPending = 0;
  /** Embed calls still waiting when the instance was disposed: cancelled, or their results dropped. */
  private embedsCancelled = 0;
  private disposed = false;

  constructor(
    private readonly services: HostServices,
    private readonly options: InstanceOptions = {},
  ) {
    this.quotas = { ...DEFAULT_QUOTAS, ...options.quotas };
    this.kv = new KvStore(this.quotas);
    this.vectors = new VectorStore(this.quotas);
  }

  /**
   * Answers one call from the isolate: synchronously when the work is synchronous (kv, vectors, embeddings
   * already cached, log), with a promise otherwise. Never throws, never rejects.
   */
  answer(name: string, args: unknown): Envelope | Promise<Envelope> {
    const started = performance.now();
    let bytesIn = 0;
    let out: unknown;
    try {
      const schema = (schemas as Record<string, z.ZodType>)[name];
      if (!schema) throw new Error(`unknown host primitive "${name}"`);
      // Shape first, in bounded work: the schema walks every element and builds an issue per hole.
      const outOfBounds = argBoundsIssue(name, args);
      if (outOfBounds) throw new Error(outOfBounds);
      bytesIn = approxBytes(args);
      const parsed = schema.safeParse(args);
      if (!parsed.success) throw new Error(`${name}: bad arguments: ${firstIssues(parsed.error)}`);
      out = this.run(name as PrimitiveName, parsed.data as unknown[]);
    } catch (err) {
      return this.settle(name, started, bytesIn, this.failure(name, err));
    }
    if (out instanceof Promise) {
      return out.then(
        (value) => this.settle(name, started, bytesIn, { ok: true, value }),
        (err) => this.settle(name, started, bytesIn, this.failure(name, err)),
      );
    }
    return this.settle(name, started, bytesIn, { ok: true, value: out });
  }

  private failure(name: string, err: unknown): Envelope {
    if (isUpstreamFailure(err)) this.infraFailures++;
    return failure(name, err);
  }

  /** After the update phase: kv and vector indices become read-only, so one task's retrieve cannot teach the next. */
  freeze(frozen = true): void {
    this.frozen = frozen;
  }

  private writable(name: string): void {
    if (this.frozen) throw new Error(`${name}: memory is frozen during retrieve; change kv and vectors in update()`);
  }

  /** `answer`, always as a promise. */
  async dispatch(name: string, args: unknown): Promise<Envelope> {
    return this.answer(name, args);
  }

  private settle(name: string, started: number, bytesIn: number, envelope: Envelope): Envelope {
    if (name !== 'log') {
      this.meter.record(name, {
        ok: envelope.ok,
        bytesIn,
        bytesOut: envelope.ok ? approxBytes(envelope.value) : 0,
        ms: performance.now() - started,
      });
    }
    return envelope;
  }

  /** Embeds under the embed quotas, then continues synchronously when every text was cached. */
  private embedTexts<T>(texts: string[], then: (vectors: Float32Array[]) => T): T | Promise<T> {
    this.countCall('embedCalls', ['embed', 'vectors.addText', 'vectors.searchText']);
    if (texts.length > this.quotas.embedBatch) {
      throw new QuotaError('embedBatch', `embed() got ${texts.length} texts; send at most ${this.quotas.embedBatch} per call`);
    }
    const long = texts.findIndex((t) => t.length > this.quotas.embedTextChars);
    if (long >= 0) {
      throw new QuotaError('embedTextChars', `text ${long} has ${texts[long]?.length} characters (max ${this.quotas.embedTextChars})`);
    }
    const ready = this.services.embedder.cached?.(texts);
    if (ready) return then(ready);
    this.embedsPending++;
    return this.services.embedder.embed(texts, this.embedOwner).then(
      (vectors) => {
        this.embedsPending--;
        return then(vectors);
      },
      (err: unknown) => {
        this.embedsPending--;
        if (err instanceof EmbedInfraError) this.infraFailures++;
        throw err;
      },
    );
  }

  /**
   * Milliseconds between `from` and `to` (performance.now() times) this instance's embedding work waited on shared
   * machinery for reasons not its own: other instances' work ahead of it, a worker loading the model or restarting.
   */
  sharedWaitMs(from: number, to: number): number {
    return this.embedOwner.foreignWaitMs(from, to);
  }

  private countCall(name: 'embedCalls' | 'llmCalls' | 'imageCalls', meterNames: string[]): void {
    const used = meterNames.reduce((n, m) => n + this.meter.calls(m), 0);
    if (used >= this.quotas[name]) throw new QuotaError(name, `${used} calls made`);
  }

  private run(name: PrimitiveName, a: unknown[]): unknown {
    switch (name) {
      case 'embed':
        // Float32Array crosses into the isolate as one copy; the prelude unpacks it into number[].
        return this.embedTexts(a[0] as string[], (vs) => vs);
      case 'vectors.addText': {
        this.writable('vectors.addText');
        const [handle, label, text, tags] = a as [number, number, string, string[] | null | undefined];
        return this.embedTexts([text], ([v]) => {
          this.vectors.add(handle, [{ label, vector: plainVector(v as Float32Array), tags: tags ?? undefined }]);
          return null;
        });
      }
      case 'vectors.searchText': {
        const [handle, text, k, options] = a as [number, string, number, object | null | undefined];
        return this.embedTexts([text], ([v]) => this.vectors.search(handle, plainVector(v as Float32Array), k, options ?? undefined));
      }
      case 'embedImage':
        this.countCall('imageCalls', IMAGE_PRIMITIVES);
        return pixelEmbedding(this.image(a[0]).bytes);
      case 'vectors.create': {
        this.writable('vectors.create');
        const o = a[0] as { dim: number; space?: 'cosine' | 'ip' | 'l2'; maxElements?: number };
        return this.vectors.create(o.dim, o.space ?? 'cosine', o.maxElements ?? 1024);
      }
      case 'vectors.add': {
        this.writable('vectors.add');
        const items = (a[1] as { label: number; vector: number[] | Float64Array; tags?: string[] | null }[]).map((it) => ({
          label: it.label,
          vector: plainVector(it.vector),
          tags: it.tags ?? undefined,
        }));
        this.vectors.add(a[0] as number, items);
        return null;
      }
      case 'vectors.search':
        return this.vectors.search(a[0] as number, plainVector(a[1] as number[] | Float64Array), a[2] as number, (a[3] as object | null) ?? undefined);
      case 'vectors.remove':
        this.writable('vectors.remove');
        this.vectors.remove(a[0] as number, a[1] as number);
        return null;
      case 'vectors.size':
        return this.vectors.size(a[0] as number);
      case 'vectors.open':
        return this.vectors.open(a[0] as number);
      case 'llm.chat': {
        this.countCall('llmCalls', ['llm.chat']);
        const req = a[0] as { messages: { content: string }[] };
        const chars = req.messages.reduce((n, m) => n + m.content.length, 0);
        if (chars > this.quotas.llmPromptChars) {
          throw new QuotaError('llmPromptChars', `prompt of ${chars} characters (max ${this.quotas.llmPromptChars})`);
        }
        return this.services.chat.chat(a[0] as Parameters<ChatService['chat']>[0]).then((r) => {
          if (!r.offline) {
            this.llmTokens.prompt += r.usage.promptTokens;
            this.llmTokens.completion += r.usage.completionTokens;
          }
          return r;
        });
      }
      case 'images.caption':
        this.countCall('imageCalls', IMAGE_PRIMITIVES);
        return caption(this.image(a[0]), this.services.chat);
      case 'images.phash':
        this.countCall('imageCalls', IMAGE_PRIMITIVES);
        return perceptualHash(this.image(a[0]).bytes);
      case 'images.thumbnail': {
        this.countCall('imageCalls', IMAGE_PRIMITIVES);
        const img = this.image(a[0]);
        const maxSide = (a[1] as { maxSide?: number } | null)?.maxSide ?? 128;
        return thumbnail(img.bytes, maxSide).then((png) =>
          this.services.images.put(png, { mime: 'image/png', ...(img.ref.caption ? { caption: img.ref.caption } : {}) }),
        );
      }
      case 'images.ocr':
        this.countCall('imageCalls', IMAGE_PRIMITIVES);
        return ocr(this.image(a[0]).bytes);
      case 'kv.get':
        return this.kv.get(a[0] as string);
      case 'kv.set':
        this.writable('kv.set');
        this.kv.set(a[0] as string, a[1] as string);
        return null;
      case 'kv.delete':
        this.writable('kv.delete');
        return this.kv.delete(a[0] as string);
      case 'kv.keys':
        return this.kv.keys(a[0] as string);
      case 'log':
        this.log(a[0] as string);
        return null;
    }
  }

  /** Characters of ctx.log the isolate may send over its life (the isolate enforces it before sending). */
  get logCharsQuota(): number {
    return Math.floor(this.quotas.logBytes / 2);
  }

  noteDroppedLogs(n: number): void {
    if (Number.isInteger(n) && n >= 0) this.droppedInIsolate = n;
  }

  private image(arg: unknown) {
    return this.services.images.get((arg as { id: string }).id);
  }

  private log(line: string): void {
    const bytes = line.length * 2;
    if (this.logBytes + bytes > this.quotas.logBytes) {
      this.droppedLogs++;
      return;
    }
    this.logBytes += bytes;
    if (this.options.onLog) this.options.onLog(line);
    else this.logs.push(line);
  }

  usage(): InstanceUsage {
    return {
      primitives: this.meter.report(),
      kvBytes: this.kv.usedBytes,
      kvKeys: this.kv.size,
      vectorIndices: this.vectors.handles,
      vectorBytes: this.vectors.usedBytes,
      logLines: this.logs.length,
      droppedLogLines: this.droppedLogs + this.droppedInIsolate,
      llmTokens: { ...this.llmTokens },
      embedCalls: { pending: this.disposed ? 0 : this.embedsPending, cancelled: this.embedsCancelled },
    };
  }

  dispose(): void {
    if (!this.disposed) {
      this.disposed = true;
      this.embedsCancelled = this.embedsPending;
      // Work the instance queued is never run for it, so it cannot hold up the next instance.
      this.embedOwner.close();
    }
    this.vectors.dispose();
  }
}

/** An upstream service failed (after the SDK's own retries): rate limits, server errors, timeouts, no connection. */
export function isUpstreamFailure(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError) return true;
  if (err instanceof OpenAI.APIError) return err.status === undefined || err.status === 429 || err.status >= 500;
  return false;
}

/** The first few schema issues: a message stays short however many elements were wrong. */
function firstIssues(error: z.ZodError, shown = 5): string {
  const lines = error.issues.slice(0, shown).map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`);
  const more = error.issues.length - shown;
  return lines.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function failure(name: string, err: unknown): Envelope {
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, error: err instanceof QuotaError || message.startsWith(name) ? message : `${name}: ${message}` };
}

export interface InstanceUsage {
  primitives: UsageReport;
  kvBytes: number;
  kvKeys: number;
  vectorIndices: number;
  vectorBytes: number;
  logLines: number;
  droppedLogLines: number;
  llmTokens: { prompt: number; completion: number };
  /**
   * Embed calls (embed, vectors.addText, vectors.searchText) still waiting when the report was made, and those
   * still waiting when the instance was disposed (cancelled before they ran, or their results dropped).
   */
  embedCalls: { pending: number; cancelled: number };
}
