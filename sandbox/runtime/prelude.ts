// Runs inside each isolate before the program. It builds the `MemoContext` over one host reference, makes time and
// randomness deterministic, removes globals a program has no use for, and defines the single entry the host calls.
// Everything it relies on is captured before program code runs, so a program that rewrites built-ins (JSON,
// Array.prototype, Reflect, ...) cannot change how its calls or payloads are handled.
// Host primitives are declared in sandbox/primitives/catalog.ts. A plain one arrives here as data (its name and
// arity in `config.plain`) and becomes a ctx or vector-index method below; only the primitives that reshape
// their arguments or results have a hand-written marshaller here.

/** The host's one synchronous function: an envelope now, or a ticket whose envelope arrives via __automemo_resolve. */
type HostCall = (
  name: string,
  args: unknown[],
) => { ok: true; value: any } | { ok: false; error: string } | { pending: number };
type HostDone = (callId: number, reply: unknown) => void;

interface PreludeConfig {
  seed: number;
  clockStart: number;
  /** Payload text beyond this many characters is cut before it crosses the boundary. */
  textCap: number;
  /** Largest metadata/images JSON accepted, in characters. */
  jsonCap: number;
  logCharsPerCall: number;
  /** ctx.log characters sent to the host over the instance's life; later lines are counted, not sent. */
  logChars: number;
  /** Host calls a program may have pending at once. */
  maxInFlight: number;
  /** Characters of embed() calls pending at once (the host's embedCharsInFlight quota, checked there again). */
  embedCharsInFlight: number;
  /** Shape bounds on a primitive's arguments (the host checks them again). */
  argLimits: { maxDepth: number; maxArrayLength: number; maxKeys: number; maxNodes: number; maxChars: number };
  budget: { maxChars: number; maxImages: number };
  /** Plain host primitives: `ctx.<method>` or `index.<method>`, sending `arity` arguments (an index's handle first). */
  plain: { name: string; on: 'ctx' | 'index'; method: string; arity: number }[];
}

const g = globalThis as any;
const host: HostCall = g.__automemo_host;
const done: HostDone = g.__automemo_done;
const config: PreludeConfig = g.__automemo_config;
delete g.__automemo_host;
delete g.__automemo_done;
delete g.__automemo_config;

// Intrinsics, captured before any program code exists.
const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const objectKeys = Object.keys;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const freeze = Object.freeze;
const isArray = Array.isArray;
const objectProto = Object.prototype;
const objectToString = Object.prototype.toString;
const reflectApply = Reflect.apply;
const stringSlice = String.prototype.slice;
const arrayPush = Array.prototype.push;
const arrayJoin = Array.prototype.join;
const arrayPop = Array.prototype.pop;
const isView = ArrayBuffer.isView;
const hasOwn = Object.prototype.hasOwnProperty;
const numberIsFinite = Number.isFinite;
const RealDate = Date;
const RealError = Error;
const RealPromise = Promise;
const RealMap = Map;
const RealWeakSet = WeakSet;
const weakSetHas = WeakSet.prototype.has;
const weakSetAdd = WeakSet.prototype.add;
const weakSetDelete = WeakSet.prototype.delete;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapSize = (Object.getOwnPropertyDescriptor(Map.prototype, 'size') as PropertyDescriptor).get as () => number;
const promiseThen = Promise.prototype.then;
const promiseResolve = Promise.resolve.bind(Promise);
const promiseReject = Promise.reject.bind(Promise);
const StringCtor = String;
const RealFloat64Array = Float64Array;

const slice = (s: string, a: number, b?: number): string => reflectApply(stringSlice, s, [a, b]);
const push = <T>(arr: T[], v: T): void => void reflectApply(arrayPush, arr, [v]);
const join = (arr: string[], sep: string): string => reflectApply(arrayJoin, arr, [sep]);
const pop = <T>(arr: T[]): T | undefined => reflectApply(arrayPop, arr, []);

// Surfaces that could block a thread (Atomics.wait) or allocate outside the heap cap; no program needs them.
for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly']) delete g[name];

// Seeded randomness (sfc32) for Math.random and ctx.random.
let sa = config.seed >>> 0;
let sb = 0x9e3779b9;
let sc = 0x243f6a88;
let sd = 0xb7e15162;
function random(): number {
  sa >>>= 0;
  sb >>>= 0;
  sc >>>= 0;
  sd >>>= 0;
  let t = (sa + sb) | 0;
  sa = sb ^ (sb >>> 9);
  sb = (sc + (sc << 3)) | 0;
  sc = (sc << 21) | (sc >>> 11);
  sd = (sd + 1) | 0;
  t = (t + sd) | 0;
  sc = (sc + t) | 0;
  return (t >>> 0) / 4294967296;
}
for (let i = 0; i < 12; i++) random();
Math.random = random;

// Virtual clock: starts where the host says and moves forward 1 ms per read, so time is deterministic.
let clock = config.clockStart;
const now = (): number => clock++;
function VirtualDate(this: unknown, ...args: unknown[]): unknown {
  if (!new.target) return new RealDate(now()).toString();
  return args.length === 0 ? new RealDate(now()) : new (RealDate as any)(...args);
}
VirtualDate.prototype = RealDate.prototype;
(VirtualDate as any).now = now;
(VirtualDate as any).parse = RealDate.parse;
(VirtualDate as any).UTC = RealDate.UTC;
g.Date = VirtualDate;

class ArgumentError extends RealError {
  constructor(message: string) {
    super(message);
  }
}

/**
 * A fresh copy of a primitive's arguments made of plain arrays, plain objects, scalars and typed arrays, within
 * `config.argLimits`: lengths are read before elements, holes and deep nesting are refused with a message naming
 * the primitive and the place. The copy is what crosses, so a getter or proxy cannot change it after the check,
 * and the work is the program's own CPU time.
 */
function boundedCopy(name: string, args: unknown[], counted: { chars: number }): unknown {
  const limits = config.argLimits;
  const trail: (string | number)[] = [];
  const state = { nodes: 0, chars: 0 };
  const where = (): string => {
    if (trail.length === 0) return 'the arguments';
    let out = `argument ${(trail[0] as number) + 1}`;
    for (let i = 1; i < trail.length; i++) {
      const k = trail[i] as string | number;
      out += typeof k === 'number' ? `[${k}]` : `.${slice(k, 0, 40)}`;
    }
    return out;
  };
  const fail = (what: string): never => {
    throw new ArgumentError(`${name}: ${what}`);
  };
  const copy = (value: unknown, depth: number): unknown => {
    if (++state.nodes > limits.maxNodes) fail(`arguments hold more than ${limits.maxNodes} values`);
    if (typeof value === 'string') {
      state.chars += value.length;
      if (state.chars > limits.maxChars) fail(`arguments hold more than ${limits.maxChars} characters`);
      return value;
    }
    if (value === null || typeof value !== 'object') return value;
    if (isView(value)) {
      state.chars += (value as ArrayBufferView).byteLength;
      if (state.chars > limits.maxChars) fail(`arguments hold more than ${limits.maxChars} bytes`);
      return value;
    }
    if (depth >= limits.maxDepth) fail(`${where()} is nested deeper than ${limits.maxDepth} levels`);
    if (isArray(value)) {
      const n = (value as unknown[]).length;
      if (n > limits.maxArrayLength) fail(`${where()} has ${n} elements (at most ${limits.maxArrayLength})`);
      if (state.nodes + n > limits.maxNodes) fail(`arguments hold more than ${limits.maxNodes} values`);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        push(trail, i);
        if (!(i in (value as unknown[]))) fail(`${where()} is a hole (the array has missing elements)`);
        push(out, copy((value as unknown[])[i], depth + 1));
        pop(trail);
      }
      return out;
    }
    const proto = getPrototypeOf(value);
    if (proto !== objectProto && proto !== null) fail(`${where()} is not a plain object, array or typed array`);
    const out: Record<string, unknown> = {};
    const keys = objectKeys(value);
    if (keys.length > limits.maxKeys) fail(`${where()} has ${keys.length} keys (at most ${limits.maxKeys})`);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (!reflectApply(hasOwn, value, [key])) continue;
      push(trail, key);
      out[key] = copy((value as Record<string, unknown>)[key], depth + 1);
      pop(trail);
    }
    return out;
  };
  const out = copy(args, 0);
  counted.chars = state.chars;
  return out;
}

// Replies to slow host calls arrive later through __automemo_resolve. Un-awaited slow calls would otherwise
// queue without bound in the host, so their number is capped: the program must await its calls.
// Operations run one at a time, so calls still waiting when a new one starts were left un-awaited by an operation
// that ended: the host drops their replies, and they are forgotten here so they stop counting as in flight.
let waiting = new RealMap<number, { resolve: (v: any) => void; reject: (e: Error) => void; embedChars: number }>();
// The texts of embed() calls pending: a call past the bound is refused here, before its texts are copied to the
// host (which holds them until their vectors are back, and checks the bound again).
let embedCharsInFlight = 0;
const mapDelete = Map.prototype.delete;
function callHost(name: string, args: unknown[]): Promise<any> {
  if (reflectApply(mapSize, waiting, []) >= config.maxInFlight) {
    return promiseReject(
      new RealError(
        `${name}: ${config.maxInFlight} host calls are already in flight; await your calls before making more`,
      ),
    );
  }
  let copied: unknown;
  const counted = { chars: 0 };
  try {
    copied = boundedCopy(name, args, counted);
  } catch (e) {
    return promiseReject(e instanceof ArgumentError ? e : new RealError(`${name}: its arguments could not be read`));
  }
  const embedChars = name === 'embed' ? counted.chars : 0;
  if (embedChars && embedCharsInFlight + embedChars > config.embedCharsInFlight) {
    return promiseReject(
      new RealError(
        `quota embedCharsInFlight exceeded: embed() calls not yet answered hold ${embedCharsInFlight} characters and this one ${embedChars}; at most ${config.embedCharsInFlight} are embedded at once: await earlier embed() calls before making more`,
      ),
    );
  }
  const reply = host(name, copied as unknown[]);
  if ('pending' in reply) {
    embedCharsInFlight += embedChars;
    return new RealPromise((resolve, reject) => {
      reflectApply(mapSet, waiting, [reply.pending, { resolve, reject, embedChars }]);
    });
  }
  if (reply.ok === true) return promiseResolve(reply.value);
  return promiseReject(new RealError(reply.error ?? `host primitive ${name} failed`));
}

function resolveHostCall(ticket: number, reply: { ok: boolean; value?: unknown; error?: string }): void {
  const w = reflectApply(mapGet, waiting, [ticket]);
  if (!w) return;
  reflectApply(mapDelete, waiting, [ticket]);
  embedCharsInFlight -= w.embedChars;
  if (reply.ok) w.resolve(reply.value);
  else w.reject(new RealError(reply.error ?? 'host primitive failed'));
}

let logCharsLeft = config.logChars;
let logsDropped = 0;

function safeString(value: unknown, max = 2000): string {
  let s: string;
  try {
    if (typeof value === 'string') s = value;
    else if (typeof value === 'symbol') s = value.description ?? 'Symbol()';
    else if (value === null || typeof value !== 'object') s = StringCtor(value);
    else {
      const json = jsonStringify(value);
      s = typeof json === 'string' ? json : reflectApply(objectToString, value, []);
    }
  } catch {
    s = '[unprintable]';
  }
  return s.length > max ? `${slice(s, 0, max)}…` : s;
}

// Vectors cross the boundary as Float64Array (one memory copy) and arrive as packed number arrays: element-wise
// copies are slower to make, and the arrays they produce are slower to read on either side.
function packVector(v: unknown): unknown {
  if (!isArray(v)) return v;
  const n = (v as unknown[]).length;
  if (n > config.argLimits.maxArrayLength) return v; // refused, with its length, by the bounded copy
  const out = new RealFloat64Array(n);
  for (let i = 0; i < n; i++) out[i] = (v as number[])[i] as number;
  return out;
}

function unpackVector(v: unknown): unknown {
  if (!(v instanceof RealFloat64Array || v instanceof Float32Array)) return v;
  // Filling in index order from empty (not presizing) keeps the array packed, which reads faster than a holey one.
  const n = (v as Float64Array).length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out[i] = (v as Float64Array)[i] as number;
  return out;
}

function packItems(items: unknown): unknown {
  if (!isArray(items) || (items as unknown[]).length > config.argLimits.maxArrayLength) return items;
  const out: unknown[] = [];
  for (let i = 0; i < (items as unknown[]).length; i++) {
    const it = (items as any[])[i];
    push(out, it && typeof it === 'object' ? { label: it.label, vector: packVector(it.vector), tags: it.tags } : it);
  }
  return out;
}

// A plain primitive's method sends exactly `arity` arguments, gathered in an array literal: no setter or iterator
// a program installs can see or change them on the way.
const TAKE: ((a?: unknown, b?: unknown, c?: unknown, d?: unknown) => unknown[])[] = [
  () => [],
  (a) => [a],
  (a, b) => [a, b],
  (a, b, c) => [a, b, c],
  (a, b, c, d) => [a, b, c, d],
];
type HostMethod = (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => Promise<any>;
function hostMethod(name: string, arity: number): HostMethod {
  const take = TAKE[arity];
  if (!take)
    throw new RealError(
      `prelude: host primitive ${name} takes ${arity} arguments; a plain one takes at most ${TAKE.length - 1}`,
    );
  return (a, b, c, d) => callHost(name, take(a, b, c, d));
}

const plainCtx: { method: string; call: HostMethod }[] = [];
const plainIndex: { method: string; call: HostMethod }[] = [];
for (let i = 0; i < config.plain.length; i++) {
  const p = config.plain[i] as PreludeConfig['plain'][number];
  push(p.on === 'index' ? plainIndex : plainCtx, { method: p.method, call: hostMethod(p.name, p.arity) });
}

function vectorIndex(handle: number, dim: number, space: string) {
  const index = {
    handle,
    dim,
    space,
    add: (label: number, vector: number[], tags?: string[]) =>
      callHost('vectors.add', [handle, [{ label, vector: packVector(vector), tags }]]),
    addMany: (items: unknown[]) => callHost('vectors.add', [handle, packItems(items)]),
    search: (vector: number[], k: number, options?: unknown) =>
      callHost('vectors.search', [handle, packVector(vector), k, options]),
  };
  // Runs in program time: defined, not assigned, so a setter the program put on Object.prototype is not called.
  for (let i = 0; i < plainIndex.length; i++) {
    const { method, call } = plainIndex[i] as (typeof plainIndex)[number];
    const value = (a?: unknown, b?: unknown, c?: unknown) => call(handle, a, b, c);
    defineProperty(index, method, { __proto__: null, value, enumerable: true } as PropertyDescriptor);
  }
  return freeze(index);
}

/** Puts `fn` at a dotted path of `root` ("images.phash"), making the namespaces on the way. Prelude time only. */
function place(root: Record<string, any>, path: string, fn: HostMethod): void {
  const parts = path.split('.');
  let at = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i] as string;
    if (!reflectApply(hasOwn, at, [key])) at[key] = {};
    at = at[key];
  }
  const last = parts[parts.length - 1] as string;
  if (reflectApply(hasOwn, at, [last])) throw new RealError(`prelude: ctx.${path} is defined twice`);
  at[last] = fn;
}

function freezeTree<T extends object>(o: T): T {
  const keys = objectKeys(o);
  for (let i = 0; i < keys.length; i++) {
    const v = (o as Record<string, unknown>)[keys[i] as string];
    if (v !== null && typeof v === 'object') freezeTree(v);
  }
  return freeze(o);
}

// The marshalled primitives; the plain ones are placed after them from config.plain.
const ctxTree: Record<string, any> = {
  embed: async (texts: string[]) => {
    const packed = await callHost('embed', [texts]);
    const out: unknown[] = [];
    for (let i = 0; i < packed.length; i++) push(out, unpackVector(packed[i]));
    return out;
  },
  embedImage: async (image: unknown) => unpackVector(await callHost('embedImage', [image])),
  vectors: {
    create: async (options: any) => {
      const made = await callHost('vectors.create', [options]);
      return vectorIndex(made.handle, made.dim, made.space);
    },
    open: async (handle: number) => {
      const found = await callHost('vectors.open', [handle]);
      return vectorIndex(found.handle, found.dim, found.space);
    },
  },
  kv: {
    get: async (key: string) => {
      const raw = await callHost('kv.get', [key]);
      return raw === null ? undefined : jsonParse(raw);
    },
    set: (key: string, value: unknown) => {
      const raw = jsonStringify(value);
      if (typeof raw !== 'string')
        return promiseReject(new RealError(`kv.set("${safeString(key, 100)}"): value is not JSON`));
      return callHost('kv.set', [key, raw]);
    },
  },
  log: (...args: unknown[]) => {
    if (logCharsLeft <= 0) {
      logsDropped++;
      return;
    }
    const parts: string[] = [];
    for (let i = 0; i < args.length; i++) push(parts, safeString(args[i], config.logCharsPerCall));
    const line = slice(join(parts, ' '), 0, config.logCharsPerCall);
    logCharsLeft -= line.length;
    callHost('log', [line]).catch(() => undefined);
  },
  budget: { maxChars: config.budget.maxChars, maxImages: config.budget.maxImages },
  now,
  random,
};
for (let i = 0; i < plainCtx.length; i++) {
  const p = plainCtx[i] as (typeof plainCtx)[number];
  place(ctxTree, p.method, p.call);
}
const ctx = freezeTree(ctxTree);

class PayloadError extends RealError {
  // An explicit constructor: the implicit one spreads its arguments through the (rewritable) array iterator.
  constructor(message: string) {
    super(message);
  }
}

/**
 * Counts serialized characters (strings, keys, numbers, punctuation) against the cap before the value is copied,
 * so neither a giant key nor a long array of numbers gets past it.
 */
function spend(budget: { chars: number; cap: number }, chars: number, path: string): void {
  budget.chars -= chars;
  if (budget.chars < 0)
    throw new PayloadError(
      `${slice(path, 0, 200)} makes ${budget.cap === config.jsonCap ? "the payload's images and metadata" : 'it'} larger than ${budget.cap} characters as JSON`,
    );
}

/** Copies a payload into plain JSON, naming the first place where it is not JSON (cycles, functions, ...). */
function toPlainJson(
  value: unknown,
  path: string,
  seen: WeakSet<object>,
  depth: number,
  budget: { chars: number; cap: number },
): unknown {
  if (depth > 64) throw new PayloadError(`${path} is nested deeper than 64 levels`);
  switch (typeof value) {
    case 'string':
      spend(budget, value.length + 2, path);
      return value;
    case 'number':
      if (!numberIsFinite(value)) throw new PayloadError(`${path} is ${value}, which JSON cannot hold`);
      spend(budget, StringCtor(value).length, path);
      return value;
    case 'boolean':
      spend(budget, 5, path);
      return value;
    case 'undefined':
      throw new PayloadError(`${path} is undefined`);
    case 'function':
      throw new PayloadError(`${path} is a function`);
    case 'symbol':
      throw new PayloadError(`${path} is a symbol`);
    case 'bigint':
      throw new PayloadError(`${path} is a bigint`);
  }
  if (value === null) {
    spend(budget, 4, path);
    return null;
  }
  spend(budget, 2, path);
  const obj = value as object;
  // `seen` holds the ancestors on the current path: a shared object is fine, only a cycle is an error.
  if (reflectApply(weakSetHas, seen, [obj])) throw new PayloadError(`${path} contains a cycle`);
  reflectApply(weakSetAdd, seen, [obj]);
  try {
    return plainObject(obj, path, seen, depth, budget);
  } finally {
    reflectApply(weakSetDelete, seen, [obj]);
  }
}

function plainObject(
  obj: object,
  path: string,
  seen: WeakSet<object>,
  depth: number,
  budget: { chars: number; cap: number },
): unknown {
  if (isArray(obj)) {
    const out: unknown[] = [];
    const n = (obj as unknown[]).length;
    for (let i = 0; i < n; i++) {
      spend(budget, 1, path);
      push(out, toPlainJson((obj as unknown[])[i], `${path}[${i}]`, seen, depth + 1, budget));
    }
    return out;
  }
  const proto = getPrototypeOf(obj);
  if (proto !== objectProto && proto !== null) {
    throw new PayloadError(
      `${path} is a ${safeString(reflectApply(objectToString, obj, []), 40)}, not a plain JSON object`,
    );
  }
  const out: Record<string, unknown> = {};
  const keys = objectKeys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const v = (obj as any)[key];
    if (v === undefined) continue; // as JSON does
    spend(budget, key.length + 4, `${path} (a key of ${key.length} characters)`);
    out[key] = toPlainJson(v, `${path}.${key}`, seen, depth + 1, budget);
  }
  return out;
}

function serializePayload(payload: any) {
  if (payload === null || typeof payload !== 'object') {
    throw new PayloadError(
      `retrieve must return an object {text, images, metadata?}; it returned ${typeof payload === 'object' ? 'null' : typeof payload}`,
    );
  }
  const text = payload.text;
  if (typeof text !== 'string')
    throw new PayloadError(`payload.text is ${text === null ? 'null' : typeof text}, not a string`);
  const images = payload.images;
  const metadata = payload.metadata;
  const budget = { chars: config.jsonCap, cap: config.jsonCap };
  const rest: Record<string, unknown> = {
    images: toPlainJson(images, 'payload.images', new RealWeakSet(), 0, budget),
  };
  if (metadata !== undefined) rest.metadata = toPlainJson(metadata, 'payload.metadata', new RealWeakSet(), 0, budget);
  const extra: string[] = [];
  const keys = objectKeys(payload);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (k !== 'text' && k !== 'images' && k !== 'metadata') push(extra, k);
  }
  return {
    text: text.length > config.textCap ? slice(text, 0, config.textCap) : text,
    textChars: text.length,
    rest: jsonStringify(rest),
    extraKeys: extra,
  };
}

interface Thrown {
  name: string;
  message: string;
  stack?: string;
  nonError?: string;
}

/** A property of a thrown value, or `fallback` when reading it throws (a hostile getter or proxy). */
function readThrown(e: unknown, key: string, fallback: string, max: number): string {
  try {
    const v = (e as any)[key];
    return v === undefined ? fallback : safeString(v, max);
  } catch {
    return fallback;
  }
}

function describeThrown(e: unknown): Thrown {
  let isError = false;
  try {
    isError = e instanceof RealError;
  } catch {
    // a proxy whose prototype trap throws: describe it as a non-Error value
  }
  if (isError) {
    const out: Thrown = {
      name: readThrown(e, 'name', 'Error', 100),
      message: readThrown(e, 'message', '(its message could not be read: the getter threw)', 2000),
    };
    try {
      const stack = (e as any).stack;
      if (typeof stack === 'string') out.stack = slice(stack, 0, 8000);
    } catch {
      // a hostile stack getter: keep what we have
    }
    return out;
  }
  const kind = e === null ? 'null' : typeof e;
  return { name: 'NonError', message: `threw a non-Error value (${kind}): ${safeString(e, 300)}`, nonError: kind };
}

let program: any;
const methodCache = new RealMap<string, any>();
function method(name: string): any {
  let fn = reflectApply(mapGet, methodCache, [name]);
  if (fn === undefined) {
    fn = program[name];
    reflectApply(mapSet, methodCache, [name, fn]);
  }
  return fn;
}

async function run(op: string, arg: string | undefined): Promise<any> {
  try {
    if (op === 'load') {
      const mod = g.__memoModule;
      const exported = mod && typeof mod === 'object' ? mod.default : undefined;
      if (exported === null || typeof exported !== 'object') {
        return {
          ok: false,
          error: {
            name: 'InterfaceError',
            message: `the program's default export is ${exported === null ? 'null' : typeof exported}, not an object made by defineMemo({ update, retrieve })`,
          },
        };
      }
      program = exported;
      const methods: Record<string, string> = {};
      const names = ['init', 'update', 'retrieve', 'snapshot', 'restore'];
      for (let i = 0; i < names.length; i++) methods[names[i] as string] = typeof program[names[i] as string];
      return { ok: true, value: methods };
    }
    if (op === 'setClock') {
      clock = jsonParse(arg as string);
      return { ok: true, value: null };
    }
    const fn = method(op);
    if (typeof fn !== 'function') {
      return { ok: false, error: { name: 'InterfaceError', message: `the program has no ${op}() method` } };
    }
    const input = arg === undefined ? undefined : jsonParse(arg);
    const args = op === 'update' || op === 'retrieve' || op === 'restore' ? [input, ctx] : [ctx];
    const result = await reflectApply(fn, program, args);
    if (op === 'retrieve') return { ok: true, value: serializePayload(result) };
    if (op === 'snapshot') {
      const cap = config.jsonCap * 100;
      const raw = jsonStringify(toPlainJson(result, 'snapshot', new RealWeakSet(), 0, { chars: cap, cap }));
      return { ok: true, value: raw };
    }
    return { ok: true, value: null };
  } catch (e) {
    if (e instanceof PayloadError) return { ok: false, error: { name: 'PayloadError', message: e.message } };
    return { ok: false, error: describeThrown(e) };
  }
}

/**
 * The host starts an operation with a synchronous call; the reply comes through `done` once the operation's
 * promise settles — within the same call when every host reply was immediate. Every reply also says how many
 * log lines were dropped so far.
 */
function entry(callId: number, op: string, arg: string | undefined): void {
  if (reflectApply(mapSize, waiting, []) > 0) {
    waiting = new RealMap();
    embedCharsInFlight = 0;
  }
  reflectApply(promiseThen, run(op, arg), [
    (reply: any) => {
      reply.logsDropped = logsDropped;
      done(callId, reply);
    },
    // run() catches what the program throws; this is the net under run() itself.
    () =>
      done(callId, {
        ok: false,
        error: { name: 'Error', message: `${op}() failed in a way that could not be described` },
        logsDropped,
      }),
  ]);
}

g.__automemo_entry = entry;
g.__automemo_resolve = resolveHostCall;
