// What a user typing `automemo check` sees: the real binary in a child process for a passing seed (exit code and
// output as the shell gets them); the other cases through the same dispatcher in this process, which saves a process
// start (seconds on a loaded machine) per case.
import { describe, expect, it } from 'vitest';
import { automemo, automemoInProcess } from '../support/cli.ts';

describe('automemo check', () => {
  it('passes a seed with exit 0 and says which mode ran', () => {
    const r = automemo('check', 'memo-programs/seeds/trajectory-retrieval.ts');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('memo-programs/seeds/trajectory-retrieval.ts  PASSED');
    for (const name of ['imports', 'interface', 'update', 'retrieve', 'payload-schema', 'payload-budget']) {
      expect(r.out).toMatch(new RegExp(`✓ ${name}`));
    }
    expect(r.out).toContain('mode: embed offline');
  });

  it('fails a hostile program with exit 1 and a message naming what happened', async () => {
    const r = await automemoInProcess('check', 'test/sandbox/hostile/heap-bomb.ts', '--heap-mb', '64', '--cpu-ms', '3000');
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAILED');
    expect(r.out).toMatch(/✗ update\s+episode sample-web-1: update\(\) exceeded the 64 MB heap cap/);
  });

  it('prints JSON with --json', async () => {
    const r = await automemoInProcess('check', 'memo-programs/seeds/no-memory.ts', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.passed).toBe(true);
    expect(report.checks).toHaveLength(6);
  });

  it('exits 2 with a pointer to --help on bad arguments', async () => {
    const none = await automemoInProcess('check');
    expect(none.code).toBe(2);
    expect(none.err).toContain('give exactly one program file or folder');
    expect(none.err).toContain('(automemo check --help lists its options)');
    const missing = await automemoInProcess('check', 'nope.ts');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such program: nope.ts');
    const badNum = await automemoInProcess('check', 'memo-programs/seeds/no-memory.ts', '--budget-chars', 'lots');
    expect(badNum.code).toBe(2);
    expect(badNum.err).toMatch(/--budget-chars: .*number/);
    const unknown = await automemoInProcess('check', 'memo-programs/seeds/no-memory.ts', '--frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('automemo check: unknown option --frobnicate');
    expect((await automemoInProcess('frobnicate')).code).toBe(2);
  });
});
