// Host memory per embedding call is bounded before the work. A program's embed() texts stay in the host until
// their vectors are back; 64 un-awaited calls at the documented maximum (512 texts of 32,000 characters) held
// about 2.5 GB of the host's memory before a time limit stopped them. Now what a program has in flight is bounded
// (quota embedCharsInFlight, one maximal call): past it a call is refused before its texts cross, the host's
// peak memory stays near where it was, and concurrent calls within the bound run as before.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { closeHostServices, InstancePrimitives } from '../../sandbox/primitives/index.ts';
import { quickExam } from '../../sandbox/quick-exam.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { offlineServices } from '../support/services.ts';

afterAll(() => closeHostServices());

/** The process's peak resident set (VmHWM) since the last reset, in MB; reset with clear_refs 5, as hostile.test.ts. */
const peakRssMb = () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
const resetPeakRss = () => writeFileSync('/proc/self/clear_refs', '5');

it('64 embed() calls at the documented maximum in flight: refused past one, and the host\'s peak memory stays bounded', async () => {
  const services = offlineServices();
  // Warm the shared parts (the embedding workers, the type checker) so the peak measures the program alone.
  await quickExam({ entryPath: join(repoRoot, 'memo-programs/seeds/trajectory-retrieval.ts') }, { services });
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss / 2 ** 20;
  resetPeakRss();
  const report = await quickExam({ entryPath: join(repoRoot, 'test/sandbox/hostile/embed-flood.ts') }, { services, limits: { heapMb: 256, callCpuMs: 10_000, callWallMs: 60_000, loadMs: 5000 } });
  const grew = peakRssMb() - before;
  console.log(`peak rss during 64 maximal embed() calls: ${grew.toFixed(0)} MB above the ${before.toFixed(0)} MB before`);
  expect(report.passed).toBe(false);
  expect(report.checks.find((c) => c.name === 'update')?.message).toMatch(/quota embedCharsInFlight exceeded: .* await earlier embed\(\) calls before making more/);
  expect(grew).toBeLessThan(256);
});

it('the host refuses past the bound itself, whatever the isolate sent, and counts a call out once it is answered', async () => {
  const services = offlineServices();
  const prims = new InstancePrimitives(services, { quotas: { embedCharsInFlight: 3000 } });
  const texts = (tag: string) => Array.from({ length: 2 }, (_, i) => `${tag} text ${i} `.repeat(100).slice(0, 1000));
  const first = prims.answer('embed', [texts('first')]);
  const second = prims.answer('embed', [texts('second')]);
  expect(second).toMatchObject({ ok: false, error: expect.stringMatching(/quota embedCharsInFlight exceeded: embed\(\) calls not yet answered hold 2000 characters and this one 2000; at most 3000/) });
  expect(await first).toMatchObject({ ok: true });
  expect(await prims.answer('embed', [texts('third')])).toMatchObject({ ok: true });
  prims.dispose();
});
