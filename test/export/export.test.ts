// Export as a user does it: a real (tiny, offline) search on LoCoMo, `automemo export`, `npm pack`, `npm install`
// of the tarball in a scratch folder, then the package used from plain JavaScript and its MCP server driven by the
// SDK's client over stdio. The native packages are bundled prebuilt (the default), so the install compiles nothing.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLocomoDir } from '../../envs/locomo/environment.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { onnxRuntimeAvailable } from '../../sandbox/primitives/embed-backend.ts';
import { readJournal } from '../../run-store/journal.ts';
import { automemo, automemoInProcess, cliEnv } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'export-e2e-'));
const run = join(work, 'run');
const pkgDir = join(work, 'pkg');
const scratch = join(work, 'scratch');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NAME = 'locomo-memory-test';
const timings: Record<string, number> = {};

function sh(cmd: string, args: string[], cwd: string): string {
  const t = Date.now();
  // ONNXRUNTIME_NODE_INSTALL=skip, as the package's README says: onnxruntime-node's install script would otherwise
  // fetch GPU libraries from outside the npm registry.
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...cliEnv, npm_config_update_notifier: 'false', ONNXRUNTIME_NODE_INSTALL: 'skip' },
    timeout: 300_000,
  });
  timings[`${cmd} ${args[0]}`] = Date.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  let t = Date.now();
  // Root plus the omni-simplemem seed on the validation tasks of one conversation (26, Caroline and Melanie's), in
  // one evaluation each; its final winner stores memory. The search through the dispatcher in this process (the
  // search command's own process is test/cli/search.test.ts's); the export below runs the real binary.
  mkdirSync(join(work, 'locomo'));
  cpSync(join(defaultLocomoDir(), '26.json'), join(work, 'locomo', '26.json'));
  const searched = await automemoInProcess(
    'search',
    '--env',
    'locomo',
    '--data',
    join(work, 'locomo'),
    '--seeds',
    'omni-simplemem',
    '--budget',
    '0',
    '--no-test',
    '--eval-fraction',
    '1',
    '--seed',
    '3',
    '--out',
    run,
  );
  if (searched.code !== 0) throw new Error(`search failed: ${searched.err}`);
  timings.search = Date.now() - t;
  t = Date.now();
  const exported = automemo('export', run, '--out', pkgDir, '--format', 'mcp', '--name', NAME);
  if (exported.code !== 0) throw new Error(`export failed: ${exported.err}`);
  expect(exported.out).toContain(`${NAME} (mcp)`);
  expect(exported.out).toMatch(/node\s+seed-omni-simplemem \(the run's final choice\)/);
  timings.export = Date.now() - t;
  const packed = JSON.parse(sh('npm', ['pack', '--json'], pkgDir)) as { filename: string }[];
  mkdirSync(scratch);
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }),
  );
  sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(pkgDir, packed[0]?.filename as string)],
    scratch,
  );
}, 600_000);

afterAll(() => process.stderr.write(`export e2e timings (ms): ${JSON.stringify(timings)}\n`));

/** The installed package's MCP server on `memoryDir`, connected with the official client over stdio. */
async function connectMcp(memoryDir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(scratch, 'node_modules', '.bin', `${NAME}-mcp`), '--memory-dir', memoryDir],
    cwd: scratch,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += String(d)));
  const client = new Client({ name: 'export-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

describe('automemo export', () => {
  it('records the run, the node and its scores in package.json, with types and a README', () => {
    const pkg = JSON.parse(readFileSync(join(scratch, 'node_modules', NAME, 'package.json'), 'utf8'));
    const final = readJournal(join(run, 'journal.jsonl')).events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.winner).toBe('seed-omni-simplemem');
    expect(pkg.automemo).toMatchObject({
      version: JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
      run: {
        folder: 'run',
        env: 'locomo',
        seed: 3,
        createdAt: JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')).createdAt,
      },
      node: { id: 'seed-omni-simplemem', kind: 'seed', chosenBy: 'final' },
      scores: { n: 1, test: null },
      native: { mode: 'bundle', abi: process.versions.modules },
    });
    expect(pkg.automemo.scores.validation).toBeCloseTo(final?.type === 'final' ? final.validation : NaN, 12);
    expect(pkg.automemo.scores.lcb).toBeCloseTo(final?.type === 'final' ? final.lcb : NaN, 12);
    expect(pkg.dependencies).toMatchObject({
      'isolated-vm': '5.0.4',
      'hnswlib-node': '3.0.0',
      openai: '6.49.0',
      '@energetic-ai/embeddings': '0.2.0',
      '@modelcontextprotocol/sdk': '1.32.2',
    });
    expect(pkg.bundleDependencies).toContain('isolated-vm');
    // The memory was embedded on ONNX Runtime (where it runs): its build for this platform only is inside, with no
    // install script, and nothing optional is left for npm to fetch (the whole npm package is 288 MB).
    if (onnxRuntimeAvailable()) {
      expect(pkg.bundleDependencies).toEqual(expect.arrayContaining(['onnxruntime-node', 'onnxruntime-common']));
      expect(pkg.optionalDependencies).toBeUndefined();
      const onnx = join(scratch, 'node_modules', NAME, 'node_modules', 'onnxruntime-node');
      expect(readdirSync(join(onnx, 'bin', 'napi-v6'))).toEqual([process.platform]);
      expect(JSON.parse(readFileSync(join(onnx, 'package.json'), 'utf8')).scripts).toBeUndefined();
    }
    expect(pkg.bin).toEqual({ [`${NAME}-mcp`]: 'dist/mcp.js' });
    expect(readFileSync(join(scratch, 'node_modules', NAME, 'README.md'), 'utf8')).toContain(
      `import { createMemory } from '${NAME}'`,
    );
  });

  it('is used from plain JavaScript: the packaged memory, update, retrieve, save and resume', () => {
    writeFileSync(
      join(scratch, 'use.mjs'),
      `import { createMemory, about } from '${NAME}';
const out = {};
const memory = await createMemory({ memoryDir: './mine' });
out.restored = memory.restored;
out.about = about();
out.aboutMethod = memory.about();
const known = { taskId: 'q1', instruction: 'When did Caroline go to the LGBTQ support group?', meta: { conversation: '26', speakers: ['Caroline', 'Melanie'] } };
out.known = (await memory.retrieve(known)).text;
await memory.update({
  taskId: 'new-1',
  instruction: 'Conversation between Zorblax and Quintessa, session 1',
  steps: [{ action: 'Zorblax: I adopted a purple axolotl named Fizzwick yesterday.' }, { action: 'Quintessa: Fizzwick is a great name!' }],
  outcome: { reward: 1, success: true },
  meta: { conversation: '99', speakers: ['Zorblax', 'Quintessa'] },
});
const asked = { taskId: 'q2', instruction: 'What is the name of the axolotl Zorblax adopted?', meta: { conversation: '99', speakers: ['Zorblax', 'Quintessa'] } };
out.learned = (await memory.retrieve(asked)).text;
out.stats = await memory.stats();
out.savedTo = await memory.save();
await memory.close();
const again = await createMemory({ memoryDir: './mine' });
out.again = { restored: again.restored, text: (await again.retrieve(asked)).text };
await again.close();
console.log(JSON.stringify(out));
`,
    );
    const t = Date.now();
    const r = spawnSync(process.execPath, ['--no-node-snapshot', 'use.mjs'], {
      cwd: scratch,
      encoding: 'utf8',
      env: cliEnv,
      timeout: 120_000,
    });
    timings.script = Date.now() - t;
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const episodes = out.about.memory.episodes as number;
    expect(episodes).toBeGreaterThan(10);
    // about() as the docs say: a method of the memory, and a named export that needs no memory opened.
    expect(out.aboutMethod).toEqual(out.about);
    // One world (one conversation): the memory shipped is the one the search scored.
    expect(out.about.memory.scope).toBe('the update episodes of its one world: the memory the search scored');
    expect(out.about.scores.shipped).toBeUndefined();
    // omni-simplemem has no snapshot(): its memory is rebuilt from the logged episodes and must match the saved one.
    expect(out.restored).toMatchObject({ mode: 'replay', episodes, verified: true });
    // The package embeds as its memory was embedded, so the memory's saved vectors serve (nothing embedded again).
    expect(out.restored.notes.join('\n')).not.toMatch(/embedding its texts again/);
    expect(out.restored.from).toContain(join('node_modules', NAME, 'memory'));
    expect(out.known).toContain('LGBTQ support group');
    expect(out.learned).toContain('Fizzwick');
    expect(out.stats).toMatchObject({ node: 'seed-omni-simplemem', episodes: episodes + 1, added: 1 });
    expect(out.stats.kv.keys).toBeGreaterThan(0);
    expect(out.stats.vectors[0].size).toBeGreaterThan(0);
    expect(out.savedTo).toBe('./mine');
    expect(out.again.restored).toMatchObject({
      mode: 'replay',
      from: './mine',
      episodes: episodes + 1,
      verified: true,
    });
    expect(out.again.text).toContain('Fizzwick');
  }, 180_000);

  it('type-checks a TypeScript consumer against its index.d.ts', () => {
    writeFileSync(
      join(scratch, 'consumer.ts'),
      `import { about, createMemory, type Retrieved } from '${NAME}';
const memory = await createMemory({ memoryDir: 'm', models: { embedding: null }, limits: { heapMb: 128 } });
const r: Retrieved = await memory.retrieve({ taskId: 't', instruction: 'x' });
await memory.update({ taskId: 'e', instruction: 'x', outcome: { reward: 1, success: true } }, { time: 0 });
export const text: string = r.text;
// What the hand-written index.d.ts lacked or typed loosely before it was emitted from the runtime.
export const alive: boolean = memory.alive;
export const kvBytes: number = (await memory.stats()).usage.kvBytes;
export const bytes: number | undefined = memory.image('i')?.bytes.byteLength;
export const hash: string = about().program.hash;
export const node: string = memory.about().node.id;
// @ts-expect-error a memory folder is a path
await createMemory({ memoryDir: 1 });
`,
    );
    // No @types: the declarations must stand on their own (and checking Node's types would take most of the time).
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      types: [],
    };
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    const r = spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);

  it('serves the memory over MCP (stdio): tools, update, retrieve, stats; a malformed call is an error and the server goes on', async () => {
    const t = Date.now();
    const memoryDir = join(scratch, 'mcp-memory');
    const { client, stderr } = await connectMcp(memoryDir);
    type Content = { type: string; text?: string }[];
    const textOf = (r: unknown) => (r as { content: Content }).content[0]?.text ?? '';
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((x) => x.name).sort()).toEqual(['memory_retrieve', 'memory_stats', 'memory_update']);

      const known = await client.callTool({
        name: 'memory_retrieve',
        arguments: { task: { taskId: 'q1', instruction: 'When did Caroline go to the LGBTQ support group?' } },
      });
      expect(known.isError).toBeFalsy();
      expect(textOf(known)).toContain('LGBTQ support group');

      const bad = await client.callTool({
        name: 'memory_update',
        arguments: { episode: { taskId: 'x', steps: 'none' } },
      });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/Input validation error[\s\S]*(instruction|steps|outcome)/);

      const up = await client.callTool({
        name: 'memory_update',
        arguments: {
          episode: {
            taskId: 'mcp-1',
            instruction: 'Conversation between Zorblax and Quintessa',
            steps: [{ action: 'Zorblax: my axolotl Fizzwick eats bloodworms.' }],
            outcome: { reward: 1, success: true },
            meta: { speakers: ['Zorblax', 'Quintessa'] },
          },
        },
      });
      expect(up.isError).toBeFalsy();
      const learned = await client.callTool({
        name: 'memory_retrieve',
        arguments: {
          task: {
            taskId: 'q2',
            instruction: 'What does Fizzwick the axolotl eat?',
            meta: { speakers: ['Zorblax', 'Quintessa'] },
          },
        },
      });
      expect(textOf(learned)).toContain('bloodworms');

      const stats = JSON.parse(textOf(await client.callTool({ name: 'memory_stats', arguments: {} })));
      expect(stats).toMatchObject({
        node: 'seed-omni-simplemem',
        addedSinceStart: 1,
        restored: { mode: 'replay', verified: true },
        run: { env: 'locomo' },
      });
      expect(stats.episodes).toBe(stats.restored.episodes + 1);
      expect(stats.kv.keys).toBeGreaterThan(0);
      expect(stats.scores.n).toBe(1);
      // --memory-dir: saved after the update.
      expect(JSON.parse(readFileSync(join(memoryDir, 'memory.json'), 'utf8')).episodes).toBe(stats.episodes);
    } finally {
      await client.close();
    }
    timings.mcp = Date.now() - t;
    expect(stderr()).toContain('MCP server ready');
  }, 120_000);

  it("never writes a --memory-dir that holds a user's files: the server runs, memory_update is a tool error, the files stay", async () => {
    const mine = join(scratch, 'documents');
    mkdirSync(mine);
    writeFileSync(join(mine, 'thesis.txt'), 'three years of work');
    const { client, stderr } = await connectMcp(mine);
    try {
      const up = await client.callTool({
        name: 'memory_update',
        arguments: { episode: { taskId: 'x1', instruction: 'remember me', outcome: { reward: 1, success: true } } },
      });
      expect(up.isError).toBe(true);
      expect((up.content as { text?: string }[])[0]?.text).toContain(
        `${mine} is not empty and holds no memory automemo wrote`,
      );
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('--memory-dir refused');
    expect(readFileSync(join(mine, 'thesis.txt'), 'utf8')).toBe('three years of work');
    expect(readdirSync(mine)).toEqual(['thesis.txt']);
  }, 120_000);

  // The refusals are decided by the dispatcher before any work: it runs in this process, as `automemo export` would.
  it('refuses what it cannot export, with usage errors (2) and failures (1)', async () => {
    const out = join(work, 'never');
    const notRun = await automemoInProcess('export', work, '--out', out);
    expect(notRun.code).toBe(2);
    expect(notRun.err).toContain('not a run folder');
    const unknown = await automemoInProcess('export', run, '--node', 'n99', '--out', out);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('has no node "n99"; its nodes: root, seed-omni-simplemem');
    const busy = await automemoInProcess('export', run, '--out', pkgDir);
    expect(busy.code).toBe(2);
    expect(busy.err).toContain('exists and is not empty');
    expect((await automemoInProcess('export', run, '--node', 'root', '--lcb', '--out', out)).err).toContain(
      '--node and --lcb exclude each other',
    );

    // A run whose program folder is gone, and one whose program no longer compiles.
    const damaged = join(work, 'damaged');
    mkdirSync(damaged);
    for (const f of ['run.json', 'journal.jsonl']) cpSync(join(run, f), join(damaged, f));
    const missing = await automemoInProcess('export', damaged, '--out', out);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/program of node seed-omni-simplemem is missing/);
    cpSync(join(run, 'programs'), join(damaged, 'programs'), { recursive: true });
    writeFileSync(
      join(damaged, 'programs', 'seed-omni-simplemem', 'index.ts'),
      "import fs from 'node:fs';\nexport default fs;\n",
    );
    const broken = await automemoInProcess('export', damaged, '--out', out);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/does not compile: index.ts:1:\d+: Import "node:fs" is not allowed/);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
