// `npm run demo` as a newcomer meets it: a short offline search whose last line says where its report is, and
// that report is the viewer's page as one file with the run's data in it.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLocomoDir } from '../../envs/locomo/environment.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { automemo, withoutProgress } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('automemo demo', () => {
  it('runs offline and prints where its report is', () => {
    const out = join(dir, 'run');
    // One conversation of the three (the newcomer's demo reads all of them; the tour is the same).
    const data = join(dir, 'locomo');
    mkdirSync(data);
    cpSync(join(defaultLocomoDir(), '26.json'), join(data, '26.json'));
    const r = automemo('demo', '--budget', '2', '--out', out, '--data', data);
    expect(withoutProgress(r.err)).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/meta agent offline/);
    const report = join(out, 'report.html');
    expect(r.out.trim().split('\n').at(-1)).toContain(`report: ${relative(repoRoot, report)}`);
    expect(existsSync(report)).toBe(true);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('seed-omni-simplemem');
    expect(html).toContain('<script');
  }, 600_000);
});
