// Each host primitive is declared once (sandbox/primitives/catalog.ts); these tests hold every declaration to what
// is derived from it. One program calls every contract method that reaches the host, with the sample arguments
// below: in the isolate and in the in-process bench context it gets the same answers, a primitive that writes
// memory is refused once memory is frozen, and a primitive under a call quota counts against it with the others
// declared under it. A new contract method needs a sample here (the record's type says so).
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessContext, loadInProcess } from '../../../bench/in-process.ts';
import type { EpisodeRecorder, ImageRef, PartialRecorder } from '../../../memo-programs/contract.ts';
import { compileProgram, type CompiledProgram } from '../../../sandbox/compile.ts';
import { ProgramInstance } from '../../../sandbox/isolate.ts';
import { DEFAULT_BUDGET } from '../../../sandbox/payload.ts';
import { CALLS_UNDER, PRIMITIVE_BY_NAME, PRIMITIVES } from '../../../sandbox/primitives/catalog.ts';
import type { HostMethod, HostPrimitive } from '../../../sandbox/primitives/declare.ts';
import { closeHostServices, InstancePrimitives } from '../../../sandbox/primitives/index.ts';
import type { Quotas } from '../../../sandbox/primitives/quotas.ts';
import { offlineServices } from '../../support/services.ts';

type Call = { method: HostMethod; args: unknown[] };
type Report = { method: string; ok?: unknown; error?: string; missing?: true };

// Calls `method` ("images.phash" on ctx, "index.size" on an index it made) and reports what came back, compactly.
const PROGRAM = `import { defineMemo } from 'automemo/contract';
let index: any;
const reports: unknown[][] = [];
function describe(v: any): unknown {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v) && Array.isArray(v[0])) return v.map(describe);
  if (Array.isArray(v) && typeof v[0] === 'number') return { numbers: v.length, sum: Math.round(v.reduce((a: number, b: number) => a + b, 0) * 1e6) / 1e6 };
  if (v && typeof v === 'object' && 'handle' in v) return { handle: v.handle, dim: v.dim, methods: Object.keys(v).filter((k) => typeof v[k] === 'function').sort() };
  return v;
}
async function exercise(calls: { method: string; args: unknown[] }[], ctx: any) {
  index ??= await ctx.vectors.create({ dim: 512 });
  const out: unknown[] = [];
  for (const { method, args } of calls) {
    const onIndex = method.startsWith('index.');
    const keys = (onIndex ? method.slice(6) : method).split('.');
    const owner = keys.slice(0, -1).reduce((o, k) => o?.[k], onIndex ? index : ctx);
    const fn = owner?.[keys[keys.length - 1] as string];
    if (typeof fn !== 'function') {
      out.push({ method, missing: true });
      continue;
    }
    try {
      out.push({ method, ok: describe(await fn.apply(owner, args)) });
    } catch (e) {
      out.push({ method, error: String((e as Error).message) });
    }
  }
  return out;
}
export default defineMemo({
  async update(episode, ctx) {
    reports.push(await exercise(episode.meta.calls as never, ctx));
  },
  async retrieve(task, ctx) {
    reports.push(await exercise(task.meta.calls as never, ctx));
    return { text: JSON.stringify(reports), images: [] };
  },
});`;

const vector = (seed: number) => Array.from({ length: 512 }, (_, i) => Math.sin(i * seed + 1));

/** Sample arguments for every contract method that reaches the host, in the order they are called. */
function samples(image: ImageRef): Record<HostMethod, unknown[]> {
  return {
    embed: [['a cat sleeps on the mat', 'stock prices fell']],
    embedImage: [image],
    'vectors.create': [{ dim: 8, space: 'l2' }],
    'vectors.open': [1],
    'index.add': [1, vector(1)],
    'index.addMany': [[{ label: 2, vector: vector(2), tags: ['t'] }]],
    'index.addText': [3, 'a dog barks at the postman', ['t']],
    'index.search': [vector(1), 2],
    'index.searchText': ['a barking dog', 2, { anyTags: ['t'] }],
    'index.remove': [1],
    'index.size': [],
    'llm.chat': [{ messages: [{ role: 'user', content: 'Cats sleep most of the day. Dogs bark. What do cats do?' }] }],
    'images.caption': [image],
    'images.phash': [image],
    'images.thumbnail': [image, { maxSide: 16 }],
    'images.ocr': [image],
    'kv.set': ['notes/a', { n: 1 }],
    'kv.get': ['notes/a'],
    'kv.keys': [],
    'kv.delete': ['notes/a'],
    log: ['hello from the catalog test'],
  };
}

const servedBy = (method: HostMethod): HostPrimitive => {
  const p = PRIMITIVES.find((d) => (d.serves as readonly string[]).includes(method));
  if (!p) throw new Error(`no declaration serves ${method}`);
  return p;
};

const episode = (calls: Call[]): EpisodeRecorder => ({
  taskId: 'e',
  env: 'test',
  instruction: 'exercise',
  initial: {},
  steps: [{ index: 0, action: 'noop' }],
  outcome: { reward: 1, success: true },
  meta: { calls: calls as never },
});
const task = (calls: Call[]): PartialRecorder => ({ taskId: 't', env: 'test', instruction: 'exercise', initial: {}, meta: { calls: calls as never } });

/** Runs the calls in update (memory open), freezes memory, runs them again in retrieve: the two reports. */
async function inIsolate(program: CompiledProgram, calls: Call[], quotas?: Partial<Quotas>): Promise<{ reports: Report[][]; prims: InstancePrimitives }> {
  const prims = new InstancePrimitives(offlineServices(), quotas ? { quotas } : {});
  const started = await ProgramInstance.start(program, prims);
  if (!started.ok) throw new Error(started.error.message);
  const inst = started.instance;
  const updated = await inst.update(episode(calls));
  if (!updated.ok) throw new Error(updated.error.message);
  prims.freeze();
  const retrieved = await inst.retrieve(task(calls));
  if (!retrieved.ok) throw new Error(retrieved.error.message);
  inst.dispose();
  return { reports: JSON.parse(retrieved.value.text) as Report[][], prims };
}

async function inProcess(program: CompiledProgram, calls: Call[]): Promise<{ reports: Report[][]; prims: InstancePrimitives }> {
  const prims = new InstancePrimitives(offlineServices());
  const local = loadInProcess(program);
  const ctx = inProcessContext(prims, DEFAULT_BUDGET);
  await local.update(episode(calls), ctx);
  prims.freeze();
  const payload = await local.retrieve(task(calls), ctx);
  return { reports: JSON.parse(payload.text) as Report[][], prims };
}

const callCounts = (prims: InstancePrimitives) =>
  Object.fromEntries(Object.entries(prims.usage().primitives).map(([name, u]) => [name, { calls: u.calls, errors: u.errors }]));

let program: CompiledProgram;
let calls: Call[];

beforeAll(async () => {
  const compiled = await compileProgram({ entryPath: join(import.meta.dirname, 'catalog-program.ts'), code: PROGRAM });
  if (!compiled.ok) throw new Error(compiled.issues.map((i) => i.message).join('\n'));
  program = compiled.program;
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#c03' } }).png().toBuffer();
  const image = await offlineServices().images.put(png, { caption: 'a red rectangle' });
  calls = Object.entries(samples(image)).map(([method, args]) => ({ method: method as HostMethod, args }));
});

afterAll(() => closeHostServices());

describe('host primitives declared once', () => {
  it('are all reachable from a program in the isolate and in the bench context, with the same answers', async () => {
    const iso = await inIsolate(program, calls);
    const local = await inProcess(program, calls);
    const [open] = iso.reports;
    expect(open?.map((r) => r.method)).toEqual(calls.map((c) => c.method));
    for (const r of open ?? []) expect(r, `${r.method} with memory open`).toHaveProperty('ok');
    // The index a program holds has exactly the index methods of the contract, plain and marshalled alike.
    const made = open?.find((r) => r.method === 'vectors.create')?.ok as { methods: string[] };
    expect(made.methods).toEqual(calls.filter((c) => c.method.startsWith('index.')).map((c) => c.method.slice(6)).sort());
    expect(open?.find((r) => r.method === 'index.size')?.ok).toBe(2);
    expect(open?.find((r) => r.method === 'kv.keys')?.ok).toEqual(['notes/a']);
    expect(local.reports).toEqual(iso.reports);
    // Every metered primitive was answered by the host, as often on both sides.
    const counted = callCounts(iso.prims);
    for (const p of PRIMITIVES.filter((d) => d.metered)) expect(counted[p.name]?.calls, p.name).toBeGreaterThan(0);
    expect(callCounts(local.prims)).toEqual(counted);
    iso.prims.dispose();
    local.prims.dispose();
  });

  it('refuse a primitive that writes memory while memory is frozen, and only those', async () => {
    const { reports, prims } = await inIsolate(program, calls);
    const frozen = reports[1] ?? [];
    expect(frozen).toHaveLength(calls.length);
    for (const r of frozen) {
      const p = servedBy(r.method as HostMethod);
      if (p.writes) expect(r.error, r.method).toBe(`${p.name}: memory is frozen during retrieve; change kv and vectors in update()`);
      else expect(r, r.method).toHaveProperty('ok');
    }
    expect(PRIMITIVES.filter((p) => p.writes).map((p) => p.name).sort()).toEqual(
      ['kv.delete', 'kv.set', 'vectors.add', 'vectors.addText', 'vectors.create', 'vectors.remove'].sort(),
    );
    prims.dispose();
  });

  it.each(Object.keys(CALLS_UNDER) as (keyof typeof CALLS_UNDER)[])(
    'count every primitive under %s against it, and refuse the call past it',
    async (quota) => {
      const under = calls.filter((c) => servedBy(c.method).quota === quota);
      // One call to each contract method under the quota fills it; one more is refused.
      expect(new Set(under.map((c) => servedBy(c.method).name))).toEqual(new Set(CALLS_UNDER[quota]));
      const { reports, prims } = await inIsolate(program, [...under, under[0] as Call], { [quota]: under.length });
      const open = reports[0] ?? [];
      for (const r of open.slice(0, -1)) expect(r, r.method).toHaveProperty('ok');
      expect(open.at(-1)?.error).toBe(`quota ${quota} exceeded: ${under.length} calls made`);
      prims.dispose();
    },
  );

  it('keep ctx and every index frozen, and their plain methods out of reach of setters on Object.prototype', async () => {
    const code = `import { defineMemo } from 'automemo/contract';
export default defineMemo({
  async update(_episode, ctx) {
    const stolen: string[] = [];
    for (const k of ['addText', 'searchText', 'remove', 'size', 'enumerable', 'writable', 'value', 'get'])
      Object.defineProperty(Object.prototype, k, { __proto__: null, set() { stolen.push(k); }, get() { return undefined; }, configurable: true } as PropertyDescriptor);
    const index = await ctx.vectors.create({ dim: 4 });
    const before = [ctx.images.phash, ctx.kv.keys, index.size];
    // Sloppy-mode assignments: a frozen object ignores them (strict code would throw).
    try { (ctx.images as any).phash = () => 'forged'; (ctx.kv as any).keys = async () => ['forged']; (index as any).size = async () => 99; } catch {}
    const unchanged = [ctx.images.phash, ctx.kv.keys, index.size].every((f, i) => f === before[i]);
    const report = { stolen, unchanged, frozen: [ctx, ctx.images, ctx.kv, ctx.llm, ctx.vectors, index].every((o) => Object.isFrozen(o)), size: await index.size(), keys: await ctx.kv.keys() };
    await ctx.kv.set('report', report);
  },
  async retrieve(_task, ctx) {
    return { text: JSON.stringify(await ctx.kv.get('report')), images: [] };
  },
});`;
    const compiled = await compileProgram({ entryPath: join(import.meta.dirname, 'tamper-ctx.ts'), code });
    if (!compiled.ok) throw new Error(compiled.issues.map((i) => i.message).join('\n'));
    const prims = new InstancePrimitives(offlineServices());
    const started = await ProgramInstance.start(compiled.program, prims);
    if (!started.ok) throw new Error(started.error.message);
    const updated = await started.instance.update(episode([]));
    expect(updated.ok, JSON.stringify(updated)).toBe(true);
    const r = await started.instance.retrieve(task([]));
    expect(r.ok && JSON.parse(r.value.text)).toEqual({ stolen: [], unchanged: true, frozen: true, size: 0, keys: [] });
    started.instance.dispose();
    prims.dispose();
  });

  it('name each declaration once, by the name the host answers to', () => {
    expect([...PRIMITIVE_BY_NAME.keys()].sort()).toEqual(PRIMITIVES.map((p) => p.name).sort());
    expect(PRIMITIVE_BY_NAME.get('constructor')).toBeUndefined();
  });
});
