// Runs a compiled memo program in the host's own V8, with a MemoContext that calls the same host primitives
// directly: the baseline the sandbox's overhead is measured against. Benchmarks only — never for untrusted code.
// As in the isolate's prelude, plain primitives become methods from their declarations (PLAIN_STUBS); only the
// marshalled ones are written out here.
import type { MemoContext, MemoProgram } from '../memo-programs/contract.ts';
import type { CompiledProgram } from '../sandbox/compile.ts';
import type { PayloadBudget } from '../sandbox/payload.ts';
import { PLAIN_STUBS } from '../sandbox/primitives/catalog.ts';
import type { InstancePrimitives } from '../sandbox/primitives/index.ts';

export function loadInProcess(program: CompiledProgram): MemoProgram {
  const mod = new Function(`${program.code}\nreturn __memoModule;`)() as { default: MemoProgram };
  return mod.default;
}

type Call = (name: string, args: unknown[]) => Promise<any>;

/** Adds the plain primitives' methods to `root`: ctx's (no handle), or those of the index with `handle`. */
function withPlain<T extends object>(root: T, call: Call, on: 'ctx' | 'index', handle?: number): T {
  for (const p of PLAIN_STUBS.filter((s) => s.on === on)) {
    const path = p.method.split('.');
    const last = path.pop() as string;
    let at = root as Record<string, any>;
    for (const key of path) at = at[key] ??= {};
    if (last in at) throw new Error(`in-process context: ${p.method} is defined twice`);
    const lead = handle === undefined ? [] : [handle];
    at[last] = (...args: unknown[]) => {
      const sent = [...lead, ...args].slice(0, p.arity);
      while (sent.length < p.arity) sent.push(undefined);
      return call(p.name, sent);
    };
  }
  return root;
}

export function inProcessContext(prims: InstancePrimitives, budget: PayloadBudget): MemoContext {
  const call: Call = async (name, args) => {
    const r = await prims.dispatch(name, args);
    if (!r.ok) throw new Error(r.error);
    return r.value as any;
  };
  let clock = Date.UTC(2024, 0, 1);
  let seed = 1;
  const index = (handle: number, dim: number, space: any) =>
    withPlain(
      {
        handle,
        dim,
        space,
        add: (label: number, vector: number[], tags?: string[]) => call('vectors.add', [handle, [{ label, vector, tags }]]),
        addMany: (items: any[]) => call('vectors.add', [handle, items]),
        search: (vector: number[], k: number, options?: any) => call('vectors.search', [handle, vector, k, options]),
      },
      call,
      'index',
      handle,
    );
  const marshalled = {
    // The host answers with Float32Arrays, as it does for the isolate; programs see number[] either way.
    embed: async (texts: string[]) => ((await call('embed', [texts])) as Float32Array[]).map((v) => Array.from(v)),
    embedImage: async (image: unknown) => Array.from((await call('embedImage', [image])) as number[]),
    vectors: {
      create: async (o: unknown) => {
        const made = await call('vectors.create', [o]);
        return index(made.handle, made.dim, made.space);
      },
      open: async (h: number) => {
        const found = await call('vectors.open', [h]);
        return index(found.handle, found.dim, found.space);
      },
    },
    kv: {
      get: async (k: string) => {
        const raw = await call('kv.get', [k]);
        return raw === null ? undefined : JSON.parse(raw);
      },
      set: (k: string, v: unknown) => call('kv.set', [k, JSON.stringify(v)]),
    },
    log: () => undefined,
    budget,
    now: () => clock++,
    random: () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    },
  };
  return withPlain(marshalled, call, 'ctx') as unknown as MemoContext;
}
