// The host side of MemoContext. `HostServices` are shared by all program instances (models, image store);
// `InstancePrimitives` hold one instance's state (vector indices, kv, usage) and answer its calls with the
// primitives declared in catalog.ts. Every call is validated, metered and quota-checked, and answers with an
// envelope — a host primitive never rejects into isolated-vm, which would surface as an unhandled rejection in
// the host process.
import OpenAI from 'openai';
import { z } from 'zod';
import { describeModel, type ResolvedModels } from '../../foundation/llm/models.ts';
import { type ChatService, createChatService } from './chat.ts';
import { closeEmbedPool, createTextEmbedder, type TextEmbedder } from './embed.ts';
import { EMBED_BACKENDS, embedBackendFromEnv } from './embed-backend.ts';
import { EmbedInfraError, EmbedOwner } from './embed-owner.ts';
import { closeOcr, ImageStore } from './images.ts';
import { KvStore } from './kv.ts';
import { argBoundsIssue } from './arg-bounds.ts';
import { CALLS_UNDER, PRIMITIVE_BY_NAME } from './catalog.ts';
import type { CallQuota, HostPrimitive, PrimitiveHost } from './declare.ts';
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

export function createHostServices(
  models: Pick<ResolvedModels, 'memo' | 'embedding'>,
  images = new ImageStore(),
): HostServices {
  return {
    embedder: createTextEmbedder(models.embedding),
    chat: createChatService(models.memo),
    images,
    modes: {
      embed: models.embedding
        ? `model ${describeModel(models.embedding)}`
        : `offline (USE-lite 512-d, ${EMBED_BACKENDS[embedBackendFromEnv()].label})`,
      memo: models.memo ? `model ${describeModel(models.memo)}` : 'offline (extractive fallback)',
    },
  };
}

/** Releases worker threads held by shared services (OCR, embedding), so a process can exit promptly. */
export async function closeHostServices(): Promise<void> {
  await Promise.all([closeOcr(), closeEmbedPool()]);
}

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
  /** Characters of the embed() calls being embedded now. */
  private embedCharsInFlight = 0;
  /** Embed calls still waiting when the instance was disposed: cancelled, or their results dropped. */
  private embedsCancelled = 0;
  private disposed = false;
  /** What the declared implementations see of this instance. */
  private readonly host: PrimitiveHost;

  constructor(
    private readonly services: HostServices,
    private readonly options: InstanceOptions = {},
  ) {
    this.quotas = { ...DEFAULT_QUOTAS, ...options.quotas };
    this.kv = new KvStore(this.quotas);
    this.vectors = new VectorStore(this.quotas);
    this.host = {
      kv: this.kv,
      vectors: this.vectors,
      chat: services.chat,
      images: services.images,
      quotas: this.quotas,
      image: (ref) => services.images.get(ref.id),
      embedTexts: (texts, then) => this.embedTexts(texts, then),
      log: (line) => this.log(line),
      spentTokens: (usage) => {
        this.llmTokens.prompt += usage.promptTokens;
        this.llmTokens.completion += usage.completionTokens;
      },
    };
  }

  /**
   * Answers one call from the isolate: synchronously when the work is synchronous (kv, vectors, embeddings
   * already cached, log), with a promise otherwise. Never throws, never rejects.
   */
  answer(name: string, args: unknown): Envelope | Promise<Envelope> {
    const started = performance.now();
    const primitive = PRIMITIVE_BY_NAME.get(name);
    let bytesIn = 0;
    let out: unknown;
    try {
      if (!primitive) throw new Error(`unknown host primitive "${name}"`);
      // Shape first, in bounded work: the schema walks every element and builds an issue per hole.
      const outOfBounds = argBoundsIssue(name, args);
      if (outOfBounds) throw new Error(outOfBounds);
      bytesIn = approxBytes(args);
      const parsed = primitive.args.safeParse(args);
      if (!parsed.success) throw new Error(`${name}: bad arguments: ${firstIssues(parsed.error)}`);
      if (primitive.writes && this.frozen)
        throw new Error(`${name}: memory is frozen during retrieve; change kv and vectors in update()`);
      if (primitive.quota) this.countCall(primitive.quota);
      out = primitive.run(this.host, parsed.data);
    } catch (err) {
      return this.settle(primitive, name, started, bytesIn, this.failure(name, err));
    }
    if (out instanceof Promise) {
      return out.then(
        (value) => this.settle(primitive, name, started, bytesIn, { ok: true, value }),
        (err) => this.settle(primitive, name, started, bytesIn, this.failure(name, err)),
      );
    }
    return this.settle(primitive, name, started, bytesIn, { ok: true, value: out });
  }

  private failure(name: string, err: unknown): Envelope {
    if (isUpstreamFailure(err)) this.infraFailures++;
    return failure(name, err);
  }

  /** After the update phase: kv and vector indices become read-only, so one task's retrieve cannot teach the next. */
  freeze(frozen = true): void {
    this.frozen = frozen;
  }

  /** `answer`, always as a promise. */
  async dispatch(name: string, args: unknown): Promise<Envelope> {
    return this.answer(name, args);
  }

  private settle(
    primitive: HostPrimitive | undefined,
    name: string,
    started: number,
    bytesIn: number,
    envelope: Envelope,
  ): Envelope {
    if (primitive?.metered !== false) {
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
    if (texts.length > this.quotas.embedBatch) {
      throw new QuotaError(
        'embedBatch',
        `embed() got ${texts.length} texts; send at most ${this.quotas.embedBatch} per call`,
      );
    }
    const long = texts.findIndex((t) => t.length > this.quotas.embedTextChars);
    if (long >= 0) {
      throw new QuotaError(
        'embedTextChars',
        `text ${long} has ${texts[long]?.length} characters (max ${this.quotas.embedTextChars})`,
      );
    }
    const ready = this.services.embedder.cached?.(texts);
    if (ready) return then(ready);
    // The texts stay in the host until their vectors are back: what a program has in flight is bounded before any work.
    let chars = 0;
    for (const t of texts) chars += t.length;
    if (this.embedCharsInFlight + chars > this.quotas.embedCharsInFlight) {
      throw new QuotaError(
        'embedCharsInFlight',
        `embed() calls not yet answered hold ${this.embedCharsInFlight} characters and this one ${chars}; at most ${this.quotas.embedCharsInFlight} are embedded at once: await earlier embed() calls before making more`,
      );
    }
    this.embedsPending++;
    this.embedCharsInFlight += chars;
    const settled = () => {
      this.embedsPending--;
      this.embedCharsInFlight -= chars;
    };
    return this.services.embedder.embed(texts, this.embedOwner).then(
      (vectors) => {
        settled();
        return then(vectors);
      },
      (err: unknown) => {
        settled();
        if (err instanceof EmbedInfraError) this.infraFailures++;
        throw err;
      },
    );
  }

  /** The isolate's share of the embedding bound, checked there before the texts cross (the host checks again). */
  get embedCharsInFlightQuota(): number {
    return this.quotas.embedCharsInFlight;
  }

  /**
   * Milliseconds between `from` and `to` (performance.now() times) this instance's embedding work waited on shared
   * machinery for reasons not its own: other instances' work ahead of it, a worker loading the model or restarting.
   */
  sharedWaitMs(from: number, to: number): number {
    return this.embedOwner.foreignWaitMs(from, to);
  }

  /** Calls of every primitive declared under `quota`, this one refused when they reach it. */
  private countCall(quota: CallQuota): void {
    let used = 0;
    for (const name of CALLS_UNDER[quota]) used += this.meter.calls(name);
    if (used >= this.quotas[quota]) throw new QuotaError(quota, `${used} calls made`);
  }

  /** Characters of ctx.log the isolate may send over its life (the isolate enforces it before sending). */
  get logCharsQuota(): number {
    return Math.floor(this.quotas.logBytes / 2);
  }

  noteDroppedLogs(n: number): void {
    if (Number.isInteger(n) && n >= 0) this.droppedInIsolate = n;
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
  const lines = error.issues
    .slice(0, shown)
    .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`);
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
