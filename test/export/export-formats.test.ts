// The npm and the MCP export of one node, installed side by side in a project of their own: two packages with two
// names (installing one never silently replaces the other), the server's command named after its package. On a
// benchmark of two worlds the shipped memory holds both worlds' update episodes while the search scored one memory
// per world: the export scores the memory as shipped on the same validation tasks and says both, in package.json
// and the package's README. Exported with --native source (nothing native inside) and added to the project's
// package-lock only (npm resolves both as it would install them, in a third of the time): this checks names and
// records; the e2e export test (export.test.ts) runs an installed package.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { automemoInProcess as automemo, cliEnv } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'export-formats-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const data = join(work, 'team-notes.jsonl');
copyFileSync(join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl'), data);
const run = join(work, 'run');
const project = join(work, 'project');

const timings: Record<string, number> = {};
afterAll(() => process.stderr.write(`export formats timings (ms): ${JSON.stringify(timings)}\n`));

function sh(cmd: string, args: string[], cwd: string): string {
  const t = Date.now();
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...cliEnv, npm_config_update_notifier: 'false', ONNXRUNTIME_NODE_INSTALL: 'skip' },
    timeout: 300_000,
  });
  timings[`${cmd} ${args[0]}`] = (timings[`${cmd} ${args[0]}`] ?? 0) + Date.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const NPM = 'automemo-memory-data-team-notes-seed-bm25';
const MCP = `${NPM}-mcp`;

beforeAll(async () => {
  const t = Date.now();
  const searched = await automemo(
    'search',
    '--env',
    `data:${data}`,
    '--seeds',
    'bm25',
    '--budget',
    '0',
    '--no-test',
    '--eval-fraction',
    '1',
    '--out',
    run,
  );
  if (searched.code !== 0) throw new Error(`search failed: ${searched.err}`);
  for (const format of ['npm', 'mcp']) {
    const exported = await automemo(
      'export',
      run,
      '--out',
      join(work, format),
      '--format',
      format,
      '--native',
      'source',
    );
    if (exported.code !== 0) throw new Error(`export ${format} failed: ${exported.err}`);
  }
  timings.searchAndExports = Date.now() - t;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-agent', version: '1.0.0', private: true }));
  const tarballs = ['npm', 'mcp'].map((f) =>
    join(
      work,
      f,
      (JSON.parse(sh('npm', ['pack', '--json'], join(work, f))) as { filename: string }[])[0]?.filename as string,
    ),
  );
  // Both in one install: with one name, npm would keep one of them.
  sh(
    'npm',
    [
      'install',
      '--package-lock-only',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--omit=optional',
      ...tarballs,
    ],
    project,
  );
}, 600_000);

describe('the npm and the MCP export of one node', () => {
  it('are two packages, both installed in one project, the server named after its package', () => {
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    expect(lock.packages[`node_modules/${NPM}`]).toBeDefined();
    expect(lock.packages[`node_modules/${NPM}`]?.bin).toBeUndefined();
    expect(lock.packages[`node_modules/${MCP}`]?.bin).toEqual({ [MCP]: 'dist/mcp.js' });
    expect(Object.keys(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies).sort()).toEqual([
      NPM,
      MCP,
    ]);
    const exported = (format: string) => JSON.parse(readFileSync(join(work, format, 'package.json'), 'utf8'));
    expect(exported('npm')).toMatchObject({ name: NPM, automemo: { formatKind: 'npm' } });
    expect(exported('mcp')).toMatchObject({ name: MCP, automemo: { formatKind: 'mcp' } });
    expect(readFileSync(join(work, 'mcp', 'README.md'), 'utf8')).toContain(`"args": ["${MCP}"`);
  });

  it('say which memory they ship: every world in one, with its own score on the same validation tasks beside the per-world one', async () => {
    const info = JSON.parse(readFileSync(join(work, 'npm', 'package.json'), 'utf8')).automemo;
    expect(info.memory.worlds).toHaveLength(2);
    expect(info.memory.scope).toBe(
      'the update episodes of all 2 worlds in one memory (the search scored one memory per world)',
    );
    // The validation tasks the search scored the node on, every world's: the shipped memory is asked them all.
    const evaluated = await automemo(
      'eval',
      '--env',
      `data:${data}`,
      '--program',
      'bm25',
      '--split',
      'validation',
      '--out',
      join(work, 'eval'),
      '--json',
    );
    const tasks = (JSON.parse(evaluated.out) as { stats: { scored: number } }).stats.scored;
    expect(info.scores.shipped).toEqual({ validation: expect.any(Number), tasks });
    expect(info.scores.shipped.validation).toBeGreaterThanOrEqual(0);
    expect(info.scores.shipped.validation).toBeLessThanOrEqual(1);
    // As the page shows it: Markdown escapes read as the characters they stand for.
    const readme = readFileSync(join(work, 'npm', 'README.md'), 'utf8').replace(/\\([()[\]])/g, '$1');
    expect(readme).toContain(
      `| this memory | the update episodes of all 2 worlds in one memory (the search scored one memory per world); as shipped it scores ${info.scores.shipped.validation.toFixed(3)} on the same ${tasks} validation tasks |`,
    );
  });
});
