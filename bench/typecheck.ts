// npm run bench:typecheck — what the type check's limits cost (sandbox/typecheck-thread.ts). A check used to run on
// the caller's thread; it now runs on a thread of its own under a time and memory limit, the thread kept between
// checks so TypeScript's parsed lib and contract files stay warm. Measured, interleaved check by check so machine
// noise hits both alike: the first (cold) check and the median warm check of a normal program, on the caller's
// thread (ProgramTypeChecker, as before) and on the limited thread; then the type-check bomb of
// test/sandbox/typecheck-limits.test.ts under 5 s, with the process's peak memory.
// Target (issue 37): the warm check on the thread within 1.5× the caller's thread, and the bomb stopped at its limit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedsDir } from '../foundation/paths.ts';
import { LimitedTypeChecker } from '../sandbox/typecheck-thread.ts';
import { ProgramTypeChecker } from '../sandbox/typecheck.ts';
import { fmt, median, table } from './stats.ts';

const ROUNDS = 20;
const programs = [join(seedsDir, 'trajectory-retrieval.ts'), join(seedsDir, 'omni-simplemem', 'index.ts')];
const names = 'abcdefghi'.split('');
const BOMB = `import { defineMemo } from 'automemo/contract';
type Perm<T, U = T> = [T] extends [never] ? [] : T extends unknown ? [T, ...Perm<Exclude<U, T>>] : never;
type Order = Perm<${names.map((n) => `'${n}'`).join(' | ')}>;
const order: Order = [${names.map((n) => `'${n}'`).join(', ')}];
export default defineMemo({ update() { void order; }, retrieve: () => ({ text: '', images: [] }) });
`;

const peakRssMb = () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  const rows: (string | number)[][] = [
    ['program', 'caller thread: cold / warm median (ms)', 'limited thread: cold / warm median (ms)', 'warm ratio'],
  ];
  let worst = 0;
  for (const entry of programs) {
    const here = new ProgramTypeChecker();
    const thread = new LimitedTypeChecker();
    const hereMs: number[] = [];
    const threadMs: number[] = [];
    for (let i = 0; i <= ROUNDS; i++) {
      let t0 = performance.now();
      here.check(entry);
      hereMs.push(performance.now() - t0);
      t0 = performance.now();
      await thread.check(entry, undefined);
      threadMs.push(performance.now() - t0);
    }
    await thread.close();
    const ratio = median(threadMs.slice(1)) / median(hereMs.slice(1));
    worst = Math.max(worst, ratio);
    rows.push([
      entry.split('/').slice(-2).join('/'),
      `${fmt(hereMs[0] as number, 0)} / ${fmt(median(hereMs.slice(1)), 1)}`,
      `${fmt(threadMs[0] as number, 0)} / ${fmt(median(threadMs.slice(1)), 1)}`,
      fmt(ratio),
    ]);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-typecheck-'));
  writeFileSync(join(dir, 'index.ts'), BOMB);
  const thread = new LimitedTypeChecker();
  await thread.check(programs[0] as string, undefined);
  writeFileSync('/proc/self/clear_refs', '5');
  const t0 = performance.now();
  const bomb = await thread.check(join(dir, 'index.ts'), undefined, { ms: 5000, heapMb: 1024 });
  const bombMs = performance.now() - t0;
  const stopped = /went over its limit of 5 s/.test(bomb.diagnostics[0]?.message ?? '');
  await thread.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `bench:typecheck — median of ${ROUNDS} warm checks after one cold, node ${process.version}\n\n${table(rows)}\n\n`,
  );
  process.stdout.write(
    `${table([
      ['measure', 'value', 'target', 'verdict'],
      ['worst warm ratio, limited thread / caller thread', fmt(worst), '<= 1.5', worst <= 1.5 ? 'PASS' : 'FAIL'],
      [
        'type-check bomb under a 5 s limit: stopped after (ms)',
        fmt(bombMs, 0),
        '< 10000',
        stopped && bombMs < 10_000 ? 'PASS' : 'FAIL',
      ],
      ['  peak resident memory of the process meanwhile (MB)', fmt(peakRssMb(), 0), '', ''],
    ])}\n`,
  );
  process.exitCode = worst <= 1.5 && stopped && bombMs < 10_000 ? 0 : 1;
}

await main();
