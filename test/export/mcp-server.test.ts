// The MCP tools of an exported memory, in process over the SDK's in-memory transport: images in and out, and
// bad calls answered with tool errors while the server keeps working. (The installed package's server over stdio
// is driven in export.test.ts.)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compileProgram, type CompiledProgram } from '../../sandbox/compile.ts';
import { createMcpServer, openServedMemory } from '../../export/runtime/mcp-server.ts';
import { type MemorySetup, openMemory } from '../../export/runtime/memory.ts';
import { EXPORT_FORMAT, type PackageInfo } from '../../export/runtime/package-info.ts';

const info: PackageInfo = {
  format: EXPORT_FORMAT,
  version: '0.1.0',
  exportedAt: '2026-01-01T00:00:00.000Z',
  formatKind: 'mcp',
  run: { folder: 'run-x', createdAt: '2026-01-01T00:00:00.000Z', env: 'toy', seed: 0, selection: 'lcb' },
  node: { id: 'n3', kind: 'child', parent: 'root', chosenBy: 'final' },
  scores: { validation: 0.5, n: 2, lcb: 0.31, test: 0.4 },
  program: { hash: 'h', entry: 'program/index.ts', bundle: 'dist/program.js', files: ['index.ts'] },
  env: { name: 'toy', reward: 'exact match', mode: 'offline', budget: { maxChars: 1000, maxImages: 2 } },
  memory: { dir: 'memory', episodes: 0, worlds: [], updateErrors: 0, models: { embed: 'offline', memo: 'offline' } },
  native: { mode: 'bundle', platform: 'linux', arch: 'x64', abi: '115' },
};

type Content = { type: string; text?: string; data?: string; mimeType?: string }[];

describe('memory MCP server', () => {
  it('updates with an inline image, retrieves it as image content, reports stats, and survives bad calls', async () => {
    const compiled = await compileProgram({ entryPath: new URL('./fixtures/last-image.ts', import.meta.url).pathname });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const memory = await openMemory(
      {
        program: compiled.program as CompiledProgram,
        node: 'n3',
        env: 'toy',
        budget: { maxChars: 1000, maxImages: 2 },
        seed: 0,
        builtIn: null,
      },
      { fresh: true },
    );
    const server = createMcpServer(memory, { name: 'toy-memory', version: '1.0.0', info });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['memory_retrieve', 'memory_stats', 'memory_update']);
      expect(tools.tools.find((t) => t.name === 'memory_update')?.inputSchema.required).toEqual(['episode']);

      const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer();
      const up = await client.callTool({
        name: 'memory_update',
        arguments: {
          episode: {
            taskId: 'e1',
            instruction: 'look at the red square',
            initial: { images: [{ data: png.toString('base64'), mime: 'image/png' }] },
            outcome: { reward: 1, success: true },
          },
        },
      });
      expect(up.isError).toBeFalsy();
      expect((up.content as Content)[0]?.text).toContain('stored episode e1');

      const got = await client.callTool({
        name: 'memory_retrieve',
        arguments: { task: { taskId: 'q1', instruction: 'what colour?' } },
      });
      const content = got.content as Content;
      expect(content[0]).toEqual({ type: 'text', text: 'look at the red square' });
      expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(Buffer.from(content[1]?.data as string, 'base64').equals(png)).toBe(true);

      // Malformed calls: schema violations and an image id the memory never saw. Each is a tool error that names it.
      const bad = await client.callTool({
        name: 'memory_update',
        arguments: { episode: { taskId: 7, instruction: 'x' } },
      });
      expect(bad.isError).toBe(true);
      expect((bad.content as Content)[0]?.text).toMatch(/taskId[\s\S]*outcome|outcome[\s\S]*taskId/);
      const missing = await client.callTool({ name: 'memory_retrieve', arguments: {} });
      expect(missing.isError).toBe(true);
      expect((missing.content as Content)[0]?.text).toContain('task');
      const unknownImage = await client.callTool({
        name: 'memory_retrieve',
        arguments: {
          task: { taskId: 'q2', instruction: 'x', initial: { images: [{ id: 'img_0000', mime: 'image/png' }] } },
        },
      });
      expect(unknownImage.isError).toBe(true);
      expect((unknownImage.content as Content)[0]?.text).toContain('unknown image id "img_0000"');

      const stats = await client.callTool({ name: 'memory_stats', arguments: {} });
      const report = JSON.parse((stats.content as Content)[0]?.text as string);
      expect(report).toMatchObject({
        node: 'n3',
        episodes: 1,
        addedSinceStart: 1,
        images: 1,
        scores: { validation: 0.5, n: 2, lcb: 0.31, test: 0.4 },
        run: { env: 'toy' },
      });
    } finally {
      await client.close();
      await memory.close();
    }
  });

  it("with --memory-dir on a user's folder: serves, answers every update with a tool error naming the folder, writes nothing", async () => {
    const compiled = await compileProgram({
      entryPath: new URL('./fixtures/replay-notes.ts', import.meta.url).pathname,
    });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const setup: MemorySetup = {
      program: compiled.program as CompiledProgram,
      node: 'n3',
      env: 'toy',
      budget: { maxChars: 1000, maxImages: 2 },
      seed: 0,
      builtIn: null,
    };
    const work = mkdtempSync(join(tmpdir(), 'mcp-memory-dir-'));
    const dir = join(work, 'documents');
    mkdirSync(dir);
    writeFileSync(join(dir, 'thesis.txt'), 'three years of work');
    const { memory, persistence } = await openServedMemory((o) => openMemory(setup, o), dir, {});
    expect(persistence).toMatchObject({ kind: 'refused' });
    const server = createMcpServer(memory, { name: 'toy-memory', version: '1.0.0', info }, persistence);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      for (const taskId of ['e1', 'e2']) {
        const up = await client.callTool({
          name: 'memory_update',
          arguments: { episode: { taskId, instruction: 'remember me', outcome: { reward: 1, success: true } } },
        });
        expect(up.isError).toBe(true);
        expect((up.content as Content)[0]?.text).toMatch(
          new RegExp(
            `--memory-dir refused, so updates cannot be kept: ${dir} is not empty and holds no memory automemo wrote`,
          ),
        );
      }
      const got = await client.callTool({
        name: 'memory_retrieve',
        arguments: { task: { taskId: 'q', instruction: 'x' } },
      });
      expect(got.isError).toBeFalsy();
      expect(readdirSync(dir)).toEqual(['thesis.txt']);
      expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('three years of work');
      expect(readdirSync(work)).toEqual(['documents']);
    } finally {
      await client.close();
      await memory.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('with --memory-dir on a new folder: saves after every update, and a memory dir that turns foreign fails the update, not the server', async () => {
    const compiled = await compileProgram({
      entryPath: new URL('./fixtures/replay-notes.ts', import.meta.url).pathname,
    });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const setup: MemorySetup = {
      program: compiled.program as CompiledProgram,
      node: 'n3',
      env: 'toy',
      budget: { maxChars: 1000, maxImages: 2 },
      seed: 0,
      builtIn: null,
    };
    const work = mkdtempSync(join(tmpdir(), 'mcp-memory-dir-'));
    const dir = join(work, 'memory');
    const { memory, persistence } = await openServedMemory((o) => openMemory(setup, o), dir, {});
    expect(persistence).toEqual({ kind: 'save', dir });
    const server = createMcpServer(memory, { name: 'toy-memory', version: '1.0.0', info }, persistence);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const episode = (taskId: string) => ({
      episode: { taskId, instruction: 'remember me', outcome: { reward: 1, success: true } },
    });
    try {
      expect((await client.callTool({ name: 'memory_update', arguments: episode('e1') })).isError).toBeFalsy();
      expect(JSON.parse(readFileSync(join(dir, 'memory.json'), 'utf8')).episodes).toBe(1);
      writeFileSync(join(dir, 'thesis.txt'), 'three years of work');
      const refused = await client.callTool({ name: 'memory_update', arguments: episode('e2') });
      expect(refused.isError).toBe(true);
      expect((refused.content as Content)[0]?.text).toMatch(
        /episode e2 is in memory but could not be saved: .* also files automemo did not write \(thesis\.txt\)/,
      );
      expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('three years of work');
      expect(JSON.parse(readFileSync(join(dir, 'memory.json'), 'utf8')).episodes).toBe(1);
    } finally {
      await client.close();
      await memory.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
