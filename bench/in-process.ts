// Runs a compiled memo program in the host's own V8, with a MemoContext that calls the same host primitives
// directly: the baseline the sandbox's overhead is measured against. Benchmarks only — never for untrusted code.
import type { MemoContext, MemoProgram } from '../memo-programs/contract.ts';
import type { CompiledProgram } from '../sandbox/compile.ts';
import type { PayloadBudget } from '../sandbox/payload.ts';
import type { InstancePrimitives } from '../sandbox/primitives/index.ts';

export function loadInProcess(program: CompiledProgram): MemoProgram {
  const mod = new Function(`${program.code}\nreturn __memoModule;`)() as { default: MemoProgram };
  return mod.default;
}

export function inProcessContext(prims: InstancePrimitives, budget: PayloadBudget): MemoContext {
  const call = async (name: string, args: unknown[]) => {
    const r = await prims.dispatch(name, args);
    if (!r.ok) throw new Error(r.error);
    return r.value as any;
  };
  let clock = Date.UTC(2024, 0, 1);
  let seed = 1;
  const index = (handle: number, dim: number, space: any) => ({
    handle,
    dim,
    space,
    add: (label: number, vector: number[], tags?: string[]) => call('vectors.add', [handle, [{ label, vector, tags }]]),
    addMany: (items: any[]) => call('vectors.add', [handle, items]),
    addText: (label: number, text: string, tags?: string[]) => call('vectors.addText', [handle, label, text, tags]),
    search: (vector: number[], k: number, options?: any) => call('vectors.search', [handle, vector, k, options]),
    searchText: (text: string, k: number, options?: any) => call('vectors.searchText', [handle, text, k, options]),
    remove: (label: number) => call('vectors.remove', [handle, label]),
    size: () => call('vectors.size', [handle]),
  });
  return {
    // The host answers with Float32Arrays, as it does for the isolate; programs see number[] either way.
    embed: async (texts) => ((await call('embed', [texts])) as Float32Array[]).map((v) => Array.from(v)),
    embedImage: async (image) => Array.from((await call('embedImage', [image])) as number[]),
    vectors: {
      create: async (o) => {
        const made = await call('vectors.create', [o]);
        return index(made.handle, made.dim, made.space);
      },
      open: async (h) => {
        const found = await call('vectors.open', [h]);
        return index(found.handle, found.dim, found.space);
      },
    },
    llm: { chat: (r) => call('llm.chat', [r]) },
    images: {
      caption: (i) => call('images.caption', [i]),
      phash: (i) => call('images.phash', [i]),
      thumbnail: (i, o) => call('images.thumbnail', [i, o]),
      ocr: (i) => call('images.ocr', [i]),
    },
    kv: {
      get: async (k) => {
        const raw = await call('kv.get', [k]);
        return raw === null ? undefined : JSON.parse(raw);
      },
      set: (k, v) => call('kv.set', [k, JSON.stringify(v)]),
      delete: (k) => call('kv.delete', [k]),
      keys: (p) => call('kv.keys', [p ?? '']),
    },
    log: () => undefined,
    budget,
    now: () => clock++,
    random: () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    },
  };
}
