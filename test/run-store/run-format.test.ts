// A run of another format than this automemo's is refused wherever a run is taken up (resume, view, report, export),
// naming its format and the version of automemo that wrote it, rather than read through compatibility branches.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { search, UsageError } from '../../api/index.ts';
import { packageVersion } from '../../foundation/version.ts';
import { RUN_FORMAT } from '../../run-store/run-folder.ts';
import { readRunInfo } from '../../viewer/run-model.ts';
import { createToyRun } from '../support/toy-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A run folder whose run.json says it was written in `format` by automemo `version`. */
function runOf(format: string, version?: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'run-format-')), 'run');
  dirs.push(join(dir, '..'));
  const { folder } = createToyRun(dir);
  const info = JSON.parse(readFileSync(folder.runJson, 'utf8'));
  writeFileSync(folder.runJson, JSON.stringify({ ...info, format, versions: version ? { automemo: version } : {} }));
  return dir;
}

describe('a run of another format', () => {
  it('is refused by resume and view, naming its format and the automemo that wrote it', async () => {
    const dir = runOf('automemo-run/1', '0.3.0');
    const said = new RegExp(
      `run\\.json is a run of format "automemo-run/1", written by automemo 0\\.3\\.0; this automemo \\(${packageVersion().replaceAll('.', '\\.')}\\) reads "${RUN_FORMAT}" runs only, so it cannot resume, view, report or export this one`,
    );
    expect(() => readRunInfo(dir)).toThrow(said);
    const resumed = search({ out: dir, resume: true });
    await expect(resumed).rejects.toThrow(UsageError);
    await expect(resumed).rejects.toThrow(said);
  });

  it('says so when its run.json does not name the automemo that wrote it', () => {
    expect(() => readRunInfo(runOf('automemo-run/0'))).toThrow(
      /format "automemo-run\/0", written by an automemo that did not say its version/,
    );
  });

  it('refuses one of this format whose options name a policy this automemo does not have, naming the field', () => {
    const dir = runOf(RUN_FORMAT, packageVersion());
    const runJson = join(dir, 'run.json');
    const info = JSON.parse(readFileSync(runJson, 'utf8'));
    writeFileSync(runJson, JSON.stringify({ ...info, options: { ...info.options, policy: 'ucb-bogus' } }));
    expect(() => readRunInfo(dir)).toThrow(/policy/);
  });

  it('leaves a run of this format alone', () => {
    expect(readRunInfo(runOf(RUN_FORMAT, packageVersion())).format).toBe(RUN_FORMAT);
  });
});
