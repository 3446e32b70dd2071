// How a host primitive is declared: once, with its name, argument schema, call quota, whether it writes memory
// and its implementation (catalog.ts holds every declaration). The rest is derived from that one declaration:
// the host's lookup, validation, quota counting and frozen-memory refusal (index.ts), the isolate's ctx method
// (the prelude builds a plain primitive's method from its name and arity, see `plainStubs`), and the in-process
// bench context. The helpers type-check each declaration against the public contract, so the two cannot drift.
import type { z } from 'zod';
import type { MemoContext, VectorIndex } from '../../memo-programs/contract.ts';
import type { ChatService } from './chat.ts';
import type { ImageStore, StoredImage } from './images.ts';
import type { KvStore } from './kv.ts';
import type { Quotas } from './quotas.ts';
import type { VectorStore } from './vectors.ts';

/** Quotas on a number of calls: a primitive under one counts against it with every primitive declared under it. */
export type CallQuota = 'embedCalls' | 'llmCalls' | 'imageCalls';

/** What an implementation may use of the program instance it answers. */
export interface PrimitiveHost {
  readonly kv: KvStore;
  readonly vectors: VectorStore;
  readonly chat: ChatService;
  readonly images: ImageStore;
  readonly quotas: Quotas;
  /** The stored image an ImageRef names (an error naming the id when there is none). */
  image(ref: { id: string }): StoredImage;
  /** Embeds under the embed quotas; continues synchronously when every text was cached. */
  embedTexts<T>(texts: string[], then: (vectors: Float32Array[]) => T): T | Promise<T>;
  log(line: string): void;
  /** Tokens a real model spent for this instance. */
  spentTokens(usage: { promptTokens: number; completionTokens: number }): void;
}

type Method = (...args: any[]) => unknown;
type MethodPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Method ? `${Prefix}${K}` : T[K] extends object ? MethodPaths<T[K], `${Prefix}${K}.`> : never;
}[keyof T & string];
type At<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** ctx methods answered inside the isolate, with no host call. */
type LocalMethod = 'now' | 'random';
/** A ctx method by its path ("images.phash"). */
export type CtxMethod = Exclude<MethodPaths<MemoContext>, LocalMethod>;
/** A method of a vector index by its name ("remove"). */
export type IndexMethod = MethodPaths<VectorIndex>;
/** Every contract method that calls the host: `ctx.<path>`, or `index.<name>` on a vector index. */
export type HostMethod = CtxMethod | `index.${IndexMethod}`;

/** How programs reach a primitive. */
export type Reach =
  /** Plain: `ctx.<name>(...args)` sends its arguments as they are and resolves to the host's value. */
  | { kind: 'ctx' }
  /** Plain: `index.<method>(...args)` sends the index's handle, then its arguments. */
  | { kind: 'index'; method: IndexMethod }
  /** Reshaped on the program's side by a marshaller of that name in the prelude and the bench context. */
  | { kind: 'marshalled' };

export interface HostPrimitive<Serves extends HostMethod = HostMethod> {
  readonly name: string;
  readonly args: z.ZodTuple<any, null>;
  /** Arguments sent, as the schema's tuple length. */
  readonly arity: number;
  readonly quota: CallQuota | undefined;
  /** Changes memory (kv or vector indices): refused while memory is frozen (retrieve). */
  readonly writes: boolean;
  /** Counted in the usage report (ctx.log, which has a byte quota of its own, is not). */
  readonly metered: boolean;
  readonly reach: Reach;
  /** The contract methods it answers. */
  readonly serves: readonly Serves[];
  /** Runs after the arguments passed `args`, the frozen check and the quota count; may return a promise. */
  readonly run: (host: PrimitiveHost, args: unknown[]) => unknown;
}

/** A method that resolves to nothing gets null from the host. */
type Reply<T> = [T] extends [void] ? null : T;
type Returns<F> = F extends (...args: any[]) => infer R ? Reply<Awaited<R>> | Promise<Reply<Awaited<R>>> : never;
type LengthOf<T extends readonly unknown[]> = Required<T>['length'];
/**
 * Every argument list the contract allows must pass the schema, with as many places: a plain stub sends exactly
 * `arity` arguments. A mismatch is a type error that shows both argument lists.
 */
type Fits<Contract extends readonly unknown[], S extends z.ZodTuple<any, null>> = [Contract] extends [z.input<S>]
  ? [LengthOf<Contract>] extends [LengthOf<z.input<S>>]
    ? unknown
    : { mismatch: 'the schema has a different number of arguments than the contract'; contract: Contract; schema: z.input<S> }
  : { mismatch: "the contract's arguments do not all pass the schema"; contract: Contract; schema: z.input<S> };

interface Options {
  quota?: CallQuota;
  writes?: boolean;
}

/** The prelude builds plain stubs of at most this many arguments. */
const MAX_ARITY = 4;
const NAME = /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*$/;

function declared<M extends HostMethod>(
  name: string,
  args: z.ZodTuple<any, null>,
  reach: Reach,
  serves: readonly M[],
  options: Options & { metered?: boolean },
  run: (host: PrimitiveHost, args: any) => unknown,
): HostPrimitive<M> {
  if (!NAME.test(name)) throw new Error(`host primitive "${name}": a name is dotted lower-camel-case words`);
  const arity = args.def.items.length;
  if (reach.kind !== 'marshalled' && arity > MAX_ARITY) {
    throw new Error(`host primitive "${name}": a plain primitive takes at most ${MAX_ARITY} arguments (the prelude's stubs)`);
  }
  return { name, args, arity, quota: options.quota, writes: options.writes ?? false, metered: options.metered ?? true, reach, serves, run };
}

/** A plain ctx method: `ctx.<name>(...args)`, checked against the contract's method of that path. */
export function ctxMethod<P extends CtxMethod, S extends z.ZodTuple<any, null>>(
  name: P,
  spec: Options & {
    args: S & Fits<Parameters<At<MemoContext, P>>, S>;
    run: (host: PrimitiveHost, args: z.output<S>) => Returns<At<MemoContext, P>>;
  },
): HostPrimitive<P> {
  return declared(name, spec.args, { kind: 'ctx' }, [name], spec, spec.run);
}

/** A plain vector-index method: `index.<method>(...args)` is the primitive `vectors.<method>(handle, ...args)`. */
export function indexMethod<M extends IndexMethod, S extends z.ZodTuple<any, null>>(
  method: M,
  spec: Options & {
    args: S & Fits<[handle: number, ...Parameters<VectorIndex[M]>], S>;
    run: (host: PrimitiveHost, args: z.output<S>) => Returns<VectorIndex[M]>;
  },
): HostPrimitive<`index.${M}`> {
  return declared(`vectors.${method}`, spec.args, { kind: 'index', method }, [`index.${method}`], spec, spec.run);
}

/**
 * A primitive whose arguments or result are reshaped on the program's side (vectors packed into Float64Array,
 * JSON for kv, index objects around handles): a marshaller of the same name in the prelude and in the bench
 * context serves the contract methods listed in `serves`. Schema, quota and writes still come from here.
 */
export function marshalled<M extends HostMethod, S extends z.ZodTuple<any, null>>(
  name: string,
  spec: Options & {
    serves: readonly M[];
    args: S;
    /** Default true. */
    metered?: boolean;
    run: (host: PrimitiveHost, args: z.output<S>) => unknown;
  },
): HostPrimitive<M> {
  return declared(name, spec.args, { kind: 'marshalled' }, spec.serves, spec, spec.run);
}

/** A plain primitive as the prelude is told of it: data, not code, crosses into the isolate. */
export interface PlainStub {
  name: string;
  /** `ctx`: placed at `ctx.<name>`; `index`: `method` of every vector index, the handle sent first. */
  on: 'ctx' | 'index';
  method: string;
  /** Arguments sent, the handle included. */
  arity: number;
}

export function plainStubs(primitives: readonly HostPrimitive[]): PlainStub[] {
  const out: PlainStub[] = [];
  for (const p of primitives) {
    if (p.reach.kind === 'ctx') out.push({ name: p.name, on: 'ctx', method: p.name, arity: p.arity });
    if (p.reach.kind === 'index') out.push({ name: p.name, on: 'index', method: p.reach.method, arity: p.arity });
  }
  return out;
}
