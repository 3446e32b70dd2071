import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedsDir } from '../../foundation/paths.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { CHECK_NAMES, quickExam } from '../../sandbox/quick-exam.ts';
import { offlineServices } from '../support/services.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
afterAll(() => closeHostServices());

describe('quick examination', () => {
  it.each(['no-memory.ts', 'trajectory-retrieval.ts'])('passes the seed %s on all six checks', async (seed) => {
    const r = await quickExam({ entryPath: join(seedsDir, seed) }, { services: offlineServices() });
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual(CHECK_NAMES.map((n) => [n, true]));
    expect(r.passed).toBe(true);
    expect(r.modes.embed).toMatch(/^offline/);
    expect(r.payloads).toHaveLength(3);
    expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('returns similar past episodes from trajectory-retrieval, with the outcome', async () => {
    const r = await quickExam({ entryPath: join(seedsDir, 'trajectory-retrieval.ts') }, { services: offlineServices() });
    const shop = r.payloads.find((p) => p.taskId === 'sample-web-4');
    expect(shop?.preview).toMatch(/Task: Find the cheapest laptop[\s\S]*Outcome: SUCCESS/);
    expect(r.usage?.primitives.embed?.calls).toBeGreaterThan(0);
  });

  it('keeps running the runtime checks when only types are wrong, and reports both', async () => {
    const code = [
      "import { defineMemo } from 'automemo/contract';",
      'const limit: number = "3";',
      "export default defineMemo({ update() {}, retrieve: () => ({ text: 'fine', images: [] }) });",
    ].join('\n');
    const r = await quickExam({ entryPath: join(fixtures, 'typed-wrong.ts'), code }, { services: offlineServices() });
    const byName = Object.fromEntries(r.checks.map((c) => [c.name, c]));
    expect(byName.interface?.ok).toBe(false);
    expect(byName.interface?.message).toContain("2:7 Type 'string' is not assignable to type 'number'.");
    expect(byName.interface?.location).toBe('typed-wrong.ts:2:7');
    expect(byName.update?.ok).toBe(true);
    expect(byName.retrieve?.ok).toBe(true);
    expect(r.passed).toBe(false);
  });

  it('records the failing case with its stack for a repair prompt', async () => {
    const r = await quickExam({ entryPath: join(fixtures, 'throws-at-line.ts') }, { services: offlineServices() });
    expect(r.failure).toMatchObject({ check: 'update', case: 'sample-web-2' });
    expect(r.failure?.detail).toContain('RangeError: too many notes: 2');
    expect(r.failure?.stack).toContain('throws-at-line.ts:13:13');
    expect(r.checks.find((c) => c.name === 'update')?.location).toBe('throws-at-line.ts:13:13');
    expect(r.checks.find((c) => c.name === 'retrieve')?.message).toBe('not run: an earlier check failed');
  });

  it('checks payloads against the budget it is given', async () => {
    const code = [
      "import { defineMemo } from 'automemo/contract';",
      "export default defineMemo({ update() {}, retrieve: () => ({ text: 'x'.repeat(150), images: [] }) });",
    ].join('\n');
    const r = await quickExam(
      { entryPath: join(fixtures, 'wordy.ts'), code },
      { services: offlineServices(), budget: { maxChars: 100, maxImages: 0 } },
    );
    const budget = r.checks.find((c) => c.name === 'payload-budget');
    expect(budget?.ok).toBe(false);
    expect(budget?.message).toContain('text is 150 characters; the budget is 100');
  });
});
