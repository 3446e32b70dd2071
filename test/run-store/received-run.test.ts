// A run folder from someone else. `export` and `search --resume` run none of the environment code it names (its
// module, or the copy inside the folder) unless the user gives --trust-run, and the refusal names the flag; a run
// this user's automemo made opens as before. And every file a run folder names is read only as a plain file within
// a bound: a crafted folder naming data or a module whose files are a pipe, or a link to /dev/zero, makes `view`,
// `report`, `export` and `--resume` end promptly with a message (they hung at full CPU, hashing until an end of file
// that never comes).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRun } from '../../api/export.ts';
import { search } from '../../api/search.ts';
import { fingerprintModule } from '../../engine/environment/module-source.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { UsageError } from '../../foundation/usage-error.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { writeEnvCopy } from '../../run-store/env-copy.ts';
import { createToyRun } from '../support/toy-run.ts';

const work = mkdtempSync(join(tmpdir(), 'received-run-'));
const ownConfig = process.env.AUTOMEMO_CONFIG_DIR;
/** Back to this user's config folder (the worker is shared with other files: never left as someone else's). */
const asMyself = () => {
  if (ownConfig === undefined) delete process.env.AUTOMEMO_CONFIG_DIR;
  else process.env.AUTOMEMO_CONFIG_DIR = ownConfig;
};
afterAll(() => {
  asMyself();
  rmSync(work, { recursive: true, force: true });
});

/** A run of one evaluated root, its environment recorded as `envSource` (run.json as automemo writes it otherwise). */
function makeRun(dir: string, env: string, envSource: Record<string, unknown>): string {
  const { folder } = createToyRun(dir, { env, budget: 0, seeds: [], seed: 0 });
  folder.writeProgram('root', { 'index.ts': readFileSync(resolveProgram('no-memory').path, 'utf8') });
  const info = JSON.parse(readFileSync(folder.runJson, 'utf8')) as Record<string, unknown>;
  // Written as the maker's automemo writes it, then marked again by the maker (createToyRun marked the first form).
  rmSync(join(dir, 'run.json'));
  rmSync(join(dir, 'mark'), { force: true });
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ ...info, envSource }, null, 2)}\n`);
  let t = 1;
  const line = (e: Record<string, unknown>) => `${JSON.stringify({ ...e, t: t++ })}\n`;
  writeFileSync(
    folder.journalPath,
    [
      line({ type: 'start', resumed: false, pid: 1 }),
      line({
        type: 'node',
        step: 0,
        id: 'root',
        parent: null,
        kind: 'root',
        dir: 'programs/root',
        hash: 'h',
        parentSnapshot: null,
      }),
      line({
        type: 'evaluation',
        step: 0,
        node: 'root',
        split: 'train',
        index: 0,
        score: 0.5,
        tasks: 1,
        evidence: 'evidence/root/train-0',
        stats: {},
        ms: 1,
      }),
      line({ type: 'step-done', step: 0 }),
      line({ type: 'final', selection: 'lcb', winner: 'root', lcb: 0, validation: 0.5 }),
    ].join(''),
  );
  return dir;
}

/** A run whose module is gone from where it was and is only the copy inside the folder: the copy writes `marker` when imported. */
async function runWithModuleCopy(name: string, marker: string, maker: () => void): Promise<string> {
  const origin = join(work, `${name}-origin`);
  mkdirSync(origin, { recursive: true });
  const module = join(origin, 'env.mjs');
  writeFileSync(
    module,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'received', summary: 'x', load: () => { throw new Error('not a benchmark'); } };\n`,
  );
  const { hash, files } = await fingerprintModule(module);
  const dir = join(work, name);
  maker();
  try {
    makeRun(dir, module, { spec: module, kind: 'module', name: 'received', path: module, hash, files });
    writeEnvCopy(dir, { root: origin, paths: [module] }, module, 'module');
    const { markRun } = await import('../../run-store/run-trust.ts');
    markRun(dir);
  } finally {
    asMyself();
  }
  // Where the maker had it: not on this machine.
  rmSync(origin, { recursive: true, force: true });
  return dir;
}

const asSomeoneElse = () => {
  process.env.AUTOMEMO_CONFIG_DIR = join(work, 'someone-else');
};

describe('a run folder from someone else', () => {
  it('runs none of its code on export or --resume without --trust-run, and the refusal names the flag', async () => {
    const marker = join(work, 'imported-received');
    const run = await runWithModuleCopy('received', marker, asSomeoneElse);
    const exported = exportRun({ run, format: 'npm', out: join(work, 'pkg-received') });
    await expect(exported).rejects.toBeInstanceOf(UsageError);
    await expect(exported).rejects.toThrow(
      /was not made by this user's automemo .*: exporting it would run the environment module .*env\.mjs.*--trust-run/,
    );
    const resumed = search({ resume: true, out: run });
    await expect(resumed).rejects.toThrow(
      /was not made by this user's automemo .*: resuming it would run the environment module .*--trust-run/,
    );
    expect(existsSync(marker)).toBe(false);
    // A folder with no mark at all (made before runs were marked, or the mark removed) is the same.
    rmSync(join(run, 'mark'));
    await expect(exportRun({ run, format: 'npm', out: join(work, 'pkg-received') })).rejects.toThrow(
      /has no mark of this user's automemo.*--trust-run/,
    );
    expect(existsSync(marker)).toBe(false);
    // Said so, the code runs.
    const notes: string[] = [];
    await exportRun({
      run,
      format: 'npm',
      out: join(work, 'pkg-trusted'),
      trustRun: true,
      onNote: (m) => notes.push(m),
    }).catch(() => undefined);
    expect(existsSync(marker)).toBe(true);
    expect(notes.join('\n')).toMatch(/running the environment module .* as --trust-run asks/);
  });

  it('a run this user made opens without asking', async () => {
    const marker = join(work, 'imported-own');
    const run = await runWithModuleCopy('own', marker, () => undefined);
    await exportRun({ run, format: 'npm', out: join(work, 'pkg-own') }).catch(() => undefined);
    expect(existsSync(marker)).toBe(true);
  });

  it("its run.json edited after it was marked is not this user's any more", async () => {
    const marker = join(work, 'imported-edited');
    const run = await runWithModuleCopy('edited', marker, () => undefined);
    writeFileSync(
      join(run, 'run.json'),
      readFileSync(join(run, 'run.json'), 'utf8').replace('"budget": 0', '"budget": 1'),
    );
    await expect(exportRun({ run, format: 'npm', out: join(work, 'pkg-edited') })).rejects.toThrow(
      /its run\.json changed since.*--trust-run/,
    );
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a crafted run folder', () => {
  it('naming data or a module whose files are a pipe or a link to /dev/zero: view, report, export and --resume end promptly with a message', () => {
    const fifo = (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0);
    const crafted: Record<string, { dir: string; says: RegExp }> = {};
    // Data folders: a pipe, a link to /dev/zero.
    for (const [name, plant, says] of [
      ['data-pipe', (p: string) => fifo(p), /a\.jsonl is not a plain file/],
      [
        'data-zero',
        (p: string) => symlinkSync('/dev/zero', p),
        /a\.jsonl is a link to \/dev\/zero, outside the folder/,
      ],
    ] as const) {
      const data = join(work, `${name}-data`);
      mkdirSync(data, { recursive: true });
      plant(join(data, 'a.jsonl'));
      crafted[name] = {
        dir: makeRun(join(work, name), `data:${data}`, {
          spec: `data:${data}`,
          kind: 'builtin',
          name: 'data',
          arg: data,
          hash: '0123456789abcdef',
          files: 1,
        }),
        says,
      };
    }
    // Modules importing a pipe, a link to /dev/zero.
    for (const [name, plant, says] of [
      ['module-pipe', (p: string) => fifo(p), /b\.ts is not a plain file/],
      ['module-zero', (p: string) => symlinkSync('/dev/zero', p), /\/dev\/zero is not a plain file/],
    ] as const) {
      const origin = join(work, `${name}-module`);
      mkdirSync(origin, { recursive: true });
      writeFileSync(join(origin, 'env.ts'), "import './b.ts';\nexport default {};\n");
      plant(join(origin, 'b.ts'));
      const module = join(origin, 'env.ts');
      crafted[name] = {
        dir: makeRun(join(work, name), module, {
          spec: module,
          kind: 'module',
          name: 'x',
          path: module,
          hash: '0123456789abcdef',
          files: 2,
        }),
        says,
      };
    }
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import',
        'tsx',
        join(repoRoot, 'test', 'run-store', 'fixtures', 'open-crafted.ts'),
        ...Object.values(crafted).map((c) => c.dir),
      ],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 90_000,
        killSignal: 'SIGKILL',
        env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '' },
      },
    );
    expect(r.signal, `killed after ${Date.now() - started} ms: a read did not end`).toBeNull();
    const said = JSON.parse(r.stdout) as Record<string, Record<string, { code: number; err: string }>>;
    for (const [name, { dir, says }] of Object.entries(crafted)) {
      const commands = said[dir] ?? {};
      expect(Object.keys(commands), name).toEqual(['view', 'report', 'export', 'resume']);
      // view and report show the run, saying its environment cannot be read; export and --resume refuse, saying why.
      for (const command of ['view', 'report', 'export', 'resume'])
        expect(commands[command]?.err, `${name} ${command}`).toMatch(says);
      expect(commands.view?.code, name).toBe(0);
      expect(commands.report?.code, name).toBe(0);
      expect(commands.export?.code, name).not.toBe(0);
      expect(commands.resume?.code, name).not.toBe(0);
    }
  });
});
