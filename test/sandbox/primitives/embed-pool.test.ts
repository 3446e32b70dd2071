// The shared offline embedding workers: work is filed per owner, cancelled when its owner ends, served in turns,
// and a program is never charged for the time others' work or a loading model kept it waiting.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { type CallResult, ProgramInstance, type SandboxLimits } from '../../../sandbox/isolate.ts';
import { checkPayload } from '../../../sandbox/payload.ts';
import { BATCH_TEXTS, closeEmbedPool, UseLiteEmbedder } from '../../../sandbox/primitives/embed.ts';
import { EmbedCancelledError, EmbedOwner } from '../../../sandbox/primitives/embed-owner.ts';
import { EmbedPool, embedPool } from '../../../sandbox/primitives/embed-pool.ts';
import {
  closeHostServices,
  createHostServices,
  type HostServices,
  InstancePrimitives,
} from '../../../sandbox/primitives/index.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { builtinSamples } from '../../../sandbox/samples.ts';

// The worker is shared with other files: the embedding settings this file chose are put back as they were.
const givenEnv = { cache: process.env.AUTOMEMO_NO_DISK_CACHE, backend: process.env.AUTOMEMO_EMBED_BACKEND };
// These tests need the embedding workers to do real work: no disk cache may answer for them (the suite shares one).
process.env.AUTOMEMO_NO_DISK_CACHE = '1';
// They need jobs that hold a worker for seconds: TF.js's tokenizer takes seconds on a text of ~30k characters
// (the ONNX backend's takes milliseconds). What they test, the pool's scheduling, is the same for every backend.
process.env.AUTOMEMO_EMBED_BACKEND = 'tfjs';

afterAll(() => {
  closeHostServices();
  for (const [key, value] of [
    ['AUTOMEMO_NO_DISK_CACHE', givenEnv.cache],
    ['AUTOMEMO_EMBED_BACKEND', givenEnv.backend],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** Fresh services: an empty in-memory cache, so every text goes to the shared workers. */
const freshServices = () => createHostServices(resolveModels({}, {}));
const texts = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag} sentence number ${i} about the weather`);
/** A text long enough to keep a TF.js worker busy for seconds (its tokenizer's time grows steeply past ~16k characters). */
const longText = (tag: string) => `${tag} ${'word salad about many things '.repeat(1100)}`;

async function start(file: string, services: HostServices, limits?: Partial<SandboxLimits>) {
  const compiled = await compileProgram({ entryPath: join(repoRoot, file) });
  if (!compiled.ok) throw new Error(`${file} did not compile`);
  const prims = new InstancePrimitives(services);
  const started = await ProgramInstance.start(compiled.program, prims, limits ? { limits } : {});
  if (!started.ok) throw new Error(started.error.message);
  return { inst: started.instance, prims };
}

const ok = <T>(r: CallResult<T>): T => {
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value;
};

/** The dense baseline's payloads on the sample tasks, each call allowed `callWallMs`. */
async function densePayloads(services: HostServices, callWallMs: number) {
  const samples = await builtinSamples(services.images);
  const { inst, prims } = await start('memo-programs/baselines/dense.ts', services, { callWallMs });
  try {
    for (const ep of samples.episodes) ok(await inst.update(ep));
    prims.freeze();
    const out: unknown[] = [];
    for (const t of samples.tasks)
      out.push(checkPayload(ok(await inst.retrieve(t)), { maxChars: 50_000, maxImages: 2 }).payload);
    return out;
  } finally {
    inst.dispose();
    prims.dispose();
  }
}

describe('embedding worker pool', () => {
  it('cancels the queued work of an owner that ended, never sending it, and serves the next owner', async () => {
    const pool = embedPool();
    await pool.run(new EmbedOwner(), ['warm up']);
    const gone = new EmbedOwner();
    const calls = Array.from({ length: 40 }, (_, i) => pool.run(gone, texts(`gone ${i}`, 8)));
    const settled = Promise.allSettled(calls);
    gone.close();
    const outcomes = await settled;
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof EmbedCancelledError)).toBe(true);
    // At most one job per worker had left the queue; the rest were never sent.
    expect(gone.jobs.sent).toBeLessThanOrEqual(pool.size);
    expect(gone.jobs.cancelled).toBe(40 - gone.jobs.sent);
    expect(gone.jobs.dropped).toBe(gone.jobs.sent);
    const next = new EmbedOwner();
    const vectors = await pool.run(next, texts('next', 4));
    expect(vectors).toHaveLength(4);
    expect(next.jobs).toEqual({ sent: 1, done: 1, cancelled: 0, dropped: 0 });
    expect(gone.jobs.sent).toBeLessThanOrEqual(pool.size);
  });

  describe('with one worker', () => {
    const pool = new EmbedPool(1, 'tfjs');
    afterAll(() => pool.close());

    it('serves owners in turns: a backlog delays another owner by one job, not by the backlog', async () => {
      const busy = new EmbedOwner();
      const backlog = Array.from({ length: 12 }, (_, i) => pool.run(busy, texts(`busy ${i}`, 4)));
      const other = new EmbedOwner();
      const first = pool.run(other, texts('other a', 4));
      const second = pool.run(other, texts('other b', 4));
      await first;
      expect(busy.jobs.done).toBe(1);
      await second;
      // Turns: busy, other, busy, other — with one worker, exactly two of the backlog ran before.
      expect(busy.jobs.done).toBe(2);
      await Promise.all(backlog);
      expect(busy.jobs.done).toBe(12);
    });

    it('counts its busy time against the time work was waiting or running (its utilisation)', async () => {
      await pool.run(new EmbedOwner(), ['warm up']);
      const before = pool.stats();
      const owner = new EmbedOwner();
      await Promise.all(Array.from({ length: 4 }, (_, i) => pool.run(owner, texts(`busy ${i}`, 8))));
      const after = pool.stats();
      expect(after.jobs - before.jobs).toBe(4);
      expect(after.texts - before.texts).toBe(32);
      const busy = after.busyMs - before.busyMs;
      const demand = after.demandMs - before.demandMs;
      expect(busy).toBeGreaterThan(0);
      // One worker, always handed the next job at once: busy for (nearly) all the time work was waiting.
      expect(busy).toBeLessThanOrEqual(demand + 1);
      expect(busy / demand).toBeGreaterThan(0.8);
      // Idle now: demand no longer grows.
      expect(pool.stats().demandMs).toBe(after.demandMs);
    });

    it("stops a worker still busy with an ended owner's job, so the next owner does not wait for it", async () => {
      await pool.run(new EmbedOwner(), ['warm up']);
      const spawned = pool.spawned;
      const gone = new EmbedOwner();
      const slow = pool.run(gone, [longText('slow')]).catch((e: unknown) => e);
      const next = new EmbedOwner();
      const waiting = pool.run(next, texts('next', 2));
      gone.close();
      expect(await slow).toBeInstanceOf(EmbedCancelledError);
      expect(await waiting).toHaveLength(2);
      // The busy worker was replaced rather than waited for.
      expect(pool.spawned).toBe(spawned + 1);
      expect(gone.jobs).toMatchObject({ sent: 1, done: 0, dropped: 1 });
    });
  });
});

describe('one program cannot sabotage the next', () => {
  it("cancels an instance's un-awaited embeds when it ends; the next program scores as it does alone", async () => {
    // Calls may take 20 s here: the flood below is minutes of work, which the next program must not wait behind.
    const wall = 20_000;
    const alone = await densePayloads(freshServices(), wall);

    const services = freshServices();
    const samples = await builtinSamples(services.images);
    const { inst, prims } = await start('test/sandbox/fixtures/embed-flood-unawaited.ts', services, {
      callWallMs: wall,
    });
    ok(await inst.update(samples.episodes[0] as never));
    const during = prims.usage().embedCalls;
    // The report shows the calls still waiting...
    expect(during.pending).toBeGreaterThan(40);
    inst.dispose();
    prims.dispose();
    // ...and, once the instance ends, that they were cancelled.
    expect(prims.usage().embedCalls).toEqual({ pending: 0, cancelled: during.pending });
    const owner = prims.embedOwner;
    const sentWhenEnded = owner.jobs.sent;
    expect(owner.jobs.cancelled).toBeGreaterThan(60);

    const after = await densePayloads(freshServices(), wall);
    expect(after).toEqual(alone);
    expect((alone[0] as { text: string }).text.length).toBeGreaterThan(0);
    // Nothing of the ended instance ran after it ended; every job it asked for is accounted for.
    expect(owner.jobs.sent).toBe(sentWhenEnded);
    expect(owner.jobs.sent).toBe(owner.jobs.done + owner.jobs.dropped);
    // The fixture's 60 calls of 64 texts, each cut into jobs of BATCH_TEXTS.
    expect(owner.jobs.sent + owner.jobs.cancelled).toBe(60 * Math.ceil(64 / BATCH_TEXTS));
  });

  it("fails a call kept waiting by others' work as infrastructure, not as the program's timeout", async () => {
    const services = freshServices();
    const samples = await builtinSamples(services.images);
    const { inst, prims } = await start('memo-programs/baselines/dense.ts', services, { callWallMs: 250 });
    // Another owner holds both workers with long jobs.
    const hog = new EmbedOwner();
    const lite = new UseLiteEmbedder();
    await lite.embed(['warm up', 'warm up too'], hog);
    const hogging = lite.embed([longText('hog a'), longText('hog b')], hog).catch(() => undefined);
    try {
      const r = await inst.update(samples.episodes[0] as never);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.kind).toBe('infra');
      expect(!r.ok && r.error.message).toMatch(/waited \d+ ms of its \d+ ms on shared embedding workers/);
      expect(prims.sharedWaitMs(0, performance.now())).toBeGreaterThan(250);
    } finally {
      hog.close();
      inst.dispose();
      prims.dispose();
      await hogging;
      await closeEmbedPool();
    }
  });
});
