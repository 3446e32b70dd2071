#!/usr/bin/env node
// The MCP server of an exported memory over stdio. isolated-vm needs --no-node-snapshot on Node 20, so without
// it the process runs itself again with the flag. stdout carries the protocol only: anything else written there
// (a library's greeting, a worker thread's console) goes to stderr.
//   --memory-dir DIR   keep the memory there: loaded when it holds one, saved after every update (a folder that is
//                      neither new, empty nor a memory automemo saved is never written: updates then fail, saying why)
//   --fresh            start empty instead of from the packaged memory
// Models: AUTOMEMO_MEMO_MODEL / AUTOMEMO_EMBEDDING_MODEL (+ _BASE_URL, _API_KEY, or OPENAI_*), as in automemo.
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveModels } from '../../foundation/llm/models.ts';
import { createMemory, packageSetup } from './index.ts';
import { createMcpServer, openServedMemory } from './mcp-server.ts';

const FLAG = '--no-node-snapshot';

async function serve(): Promise<void> {
  const { values } = parseArgs({ options: { 'memory-dir': { type: 'string' }, fresh: { type: 'boolean' } }, strict: true });
  const memoryDir = values['memory-dir'] ?? process.env.AUTOMEMO_MEMORY_DIR;
  const protocolOut = process.stdout.write.bind(process.stdout) as (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  process.on('unhandledRejection', (reason) => process.stderr.write(`memory server: unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`));

  const m = resolveModels();
  const model = (r: typeof m.memo) => (r ? { model: r.model, ...(r.baseURL ? { baseURL: r.baseURL } : {}), ...(r.apiKey ? { apiKey: r.apiKey } : {}) } : null);
  const { memory, persistence } = await openServedMemory(createMemory, memoryDir, { ...(values.fresh ? { fresh: true } : {}), models: { memo: model(m.memo), embedding: model(m.embedding) } });
  if (persistence.kind === 'refused') process.stderr.write(`memory server: ${persistence.reason}\n`);
  const { info, name, version } = packageSetup();
  const server = createMcpServer(memory, { name, version, info }, persistence);
  const out = new Writable({ write: (chunk, encoding, cb) => void protocolOut(chunk, encoding, cb) });
  const transport = new StdioServerTransport(process.stdin, out);
  let stopping = false;
  const stop = async () => {
    // Closing the server closes the transport, which reports the close again: stop once.
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => undefined);
    await memory.close().catch(() => undefined);
    process.exit(0);
  };
  transport.onclose = () => void stop();
  process.stdin.on('end', () => void stop());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
  await server.connect(transport);
  process.stderr.write(`${name}: MCP server ready (node ${info.node.id}, ${memory.restored.episodes} episodes, restored by ${memory.restored.mode} in ${memory.restored.ms} ms)\n`);
}

if (!process.execArgv.includes(FLAG) && !(process.env.NODE_OPTIONS ?? '').includes(FLAG)) {
  const child = spawn(process.execPath, [FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
} else {
  serve().catch((err: Error) => {
    process.stderr.write(`memory server: ${err.message}\n`);
    process.exit(1);
  });
}
