// Hostile memo programs: each tries to escape or exhaust the host and must end in a failed check whose message
// names what happened, while the host stays alive, its memory returns near baseline and nothing is written.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProgram } from '../../sandbox/compile.ts';
import { ProgramInstance } from '../../sandbox/isolate.ts';
import { checkPayload } from '../../sandbox/payload.ts';
import { UseLiteEmbedder } from '../../sandbox/primitives/embed.ts';
import { closeHostServices, InstancePrimitives } from '../../sandbox/primitives/index.ts';
import { quickExam } from '../../sandbox/quick-exam.ts';
import { builtinSamples } from '../../sandbox/samples.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { offlineServices } from '../support/services.ts';

const dir = join(import.meta.dirname, 'hostile');
const LIMITS = { heapMb: 128, callCpuMs: 1000, callWallMs: 2500, loadMs: 1000 };
// A case that expects another failure (a quota, a heap cap, a refused argument) gets time to spare, so a loaded
// machine cannot turn it into a timeout; only the cases about time limits run against tight ones.
const ROOMY = { heapMb: 128, callCpuMs: 10_000, callWallMs: 20_000, loadMs: 5000 };
const aboutTime = (pattern: RegExp) => /CPU|did not finish|ran longer/.test(pattern.source);

interface Case {
  file: string;
  what: string;
  check: string;
  pattern: RegExp;
  /** Quotas for this case (a `// quotas: {...}` line), so a case meets its quota long before any time limit. */
  quotas?: Record<string, number>;
}

const cases: Case[] = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const what = /^\/\/ hostile: (.+)$/m.exec(text)?.[1] ?? '';
    const m = /^\/\/ expect: ([\w-]+) \/(.+)\/$/m.exec(text);
    if (!m) throw new Error(`${file} has no "// expect: <check> /regex/" line`);
    const quotas = /^\/\/ quotas: (\{.+\})$/m.exec(text)?.[1];
    return { file, what, check: m[1] as string, pattern: new RegExp(m[2] as string), ...(quotas ? { quotas: JSON.parse(quotas) } : {}) };
  });

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/**
 * Starts the peak count afresh (Linux's clear_refs 5 resets VmHWM): this test file shares its worker process with
 * the files before it, and their peaks (a lint pass, a browser test) are not the hostile programs'.
 */
function resetPeakRss(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}

/** The process's peak resident set (VmHWM) since resetPeakRss, in MB. */
function peakRssMb(): number {
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!hwm) throw new Error('no VmHWM in /proc/self/status');
  return Number(hwm[1]) / 1024;
}

const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repoRoot }).toString();

describe('hostile memo programs', () => {
  let baselineRss = 0;
  let baselineGit = '';
  // Host code that writes temporary files would write them here; other tools' caches in /tmp cannot interfere.
  const realTmp = process.env.TMPDIR;
  const privateTmp = mkdtempSync(join(tmpdir(), 'automemo-hostile-'));

  beforeAll(async () => {
    // Warm the shared parts first so the baseline includes them: every embedding worker (each holds a copy of
    // the model), the type checker, the samples.
    await new UseLiteEmbedder().embed(Array.from({ length: 64 }, (_, i) => `warm-up text ${i}`));
    await quickExam({ entryPath: join(repoRoot, 'memo-programs/seeds/trajectory-retrieval.ts') }, { services: offlineServices() });
    baselineRss = rss();
    resetPeakRss();
    baselineGit = gitStatus();
    process.env.TMPDIR = privateTmp;
  });

  afterAll(async () => {
    if (realTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = realTmp;
    rmSync(privateTmp, { recursive: true, force: true });
    await closeHostServices();
  });

  it('has at least 25 of them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases)('$file ($what) fails $check with a message naming it', async ({ file, check, pattern, quotas }) => {
    const report = await quickExam({ entryPath: join(dir, file) }, { services: offlineServices(), limits: aboutTime(pattern) ? LIMITS : ROOMY, ...(quotas ? { quotas } : {}) });
    expect(report.passed).toBe(false);
    const failed = report.checks.find((c) => c.name === check);
    expect(failed?.ok, `${check} should fail; report: ${JSON.stringify(report.checks, null, 1)}`).toBe(false);
    expect(failed?.message).toMatch(pattern);
  });

  it('keeps one instance from affecting another through shared helpers', async () => {
    const services = offlineServices();
    const samples = await builtinSamples(services.images);
    const run = async (file: string, tamperFirst?: string) => {
      const clean = await compileProgram({ entryPath: join(repoRoot, file) });
      if (!clean.ok) throw new Error('seed did not compile');
      const victimPrims = new InstancePrimitives(services);
      const victim = await ProgramInstance.start(clean.program, victimPrims);
      if (!victim.ok) throw new Error(victim.error.message);
      if (tamperFirst) {
        const evil = await compileProgram({ entryPath: join(dir, tamperFirst) });
        if (!evil.ok) throw new Error('tamper program did not compile');
        const evilPrims = new InstancePrimitives(services);
        const attacker = await ProgramInstance.start(evil.program, evilPrims);
        if (!attacker.ok) throw new Error(attacker.error.message);
        // The attacker rewrites built-ins between the victim's calls.
        await attacker.instance.update(samples.episodes[0] as never);
        for (const ep of samples.episodes) await victim.instance.update(ep);
        await attacker.instance.update(samples.episodes[1] as never);
        attacker.instance.dispose();
        evilPrims.dispose();
      } else {
        for (const ep of samples.episodes) await victim.instance.update(ep);
      }
      const out: unknown[] = [];
      for (const t of samples.tasks) {
        const r = await victim.instance.retrieve(t);
        if (!r.ok) throw new Error(r.error.message);
        out.push(checkPayload(r.value, { maxChars: 50_000, maxImages: 2 }).payload);
      }
      victim.instance.dispose();
      victimPrims.dispose();
      return out;
    };
    const alone = await run('memo-programs/seeds/trajectory-retrieval.ts');
    const beside = await run('memo-programs/seeds/trajectory-retrieval.ts', 'tamper-builtins.ts');
    expect(beside).toEqual(alone);
    expect((alone[0] as { text: string }).text).toContain('Similar past tasks');
    // The host's own built-ins are untouched.
    expect(JSON.stringify({ a: [1] })).toBe('{"a":[1]}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves the host alive, its memory near baseline, and nothing written', async () => {
    // Disposed isolates are freed on isolated-vm's threads, later on a busy machine: a leak stays, a lag does not,
    // so the lowest reading over a few seconds is the one that counts.
    let low = rss();
    for (let i = 0; i < 20 && (low - baselineRss) / 1024 / 1024 >= 100; i++) {
      await new Promise((r) => setTimeout(r, 250));
      low = Math.min(low, rss());
    }
    const grown = (low - baselineRss) / 1024 / 1024;
    console.log(`host rss after ${cases.length} hostile programs: ${grown >= 0 ? '+' : ''}${grown.toFixed(0)} MB over baseline`);
    expect(grown, `rss grew by ${grown.toFixed(0)} MB`).toBeLessThan(200);
    // The kernel's high-water mark covers every moment of the suite, including those the event loop never saw.
    // Above the baseline, not absolute: the worker's own size depends on the files it ran before this one.
    const peakMb = peakRssMb() - baselineRss / 1024 / 1024;
    console.log(`host peak rss through the hostile suite: ${peakMb.toFixed(0)} MB above the ${(baselineRss / 1024 / 1024).toFixed(0)} MB it started from`);
    expect(peakMb, 'peak rss above the baseline').toBeLessThan(1024);
    expect(existsSync('/tmp/owned')).toBe(false);
    expect(tmpdir()).toBe(privateTmp);
    expect(readdirSync(privateTmp)).toEqual([]);
    expect(gitStatus()).toBe(baselineGit);
  });
});
