// The MCP face of an exported memory: three tools over one Memory. Inputs are validated by their zod schemas
// (the SDK answers a bad call with a tool error naming the problem); a failing call is a tool error too, and
// the server keeps serving.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EpisodeInputSchema, type MemoryOptions, TaskInputSchema } from './inputs.ts';
import type { Memory } from './memory.ts';
import { MemoryDirError } from './memory-target.ts';
import type { PackageInfo } from './package-info.ts';

/** What becomes of an update: kept in memory only, saved to a folder, or refused because that folder was. */
export type Persistence = { kind: 'none' } | { kind: 'save'; dir: string } | { kind: 'refused'; reason: string };

/**
 * The memory a server serves. With a memory folder it is loaded from there and saved there after every update;
 * a folder refused as a memory's home (a user's files, a file, the home folder) is never written: the server
 * serves the packaged memory and answers every update with a tool error that says why.
 */
export async function openServedMemory(
  open: (options: MemoryOptions) => Promise<Memory>,
  memoryDir: string | undefined,
  options: MemoryOptions,
): Promise<{ memory: Memory; persistence: Persistence }> {
  if (!memoryDir) return { memory: await open(options), persistence: { kind: 'none' } };
  try {
    return { memory: await open({ ...options, memoryDir }), persistence: { kind: 'save', dir: memoryDir } };
  } catch (err) {
    if (!(err instanceof MemoryDirError)) throw err;
    return { memory: await open(options), persistence: { kind: 'refused', reason: `--memory-dir refused, so updates cannot be kept: ${err.message}` } };
  }
}

const Time = z.number().int().min(0).optional().describe('virtual time of the call, ms since the epoch (default: now)');

const text = (value: string) => ({ type: 'text' as const, text: value });

export function createMcpServer(memory: Memory, about: { name: string; version: string; info: PackageInfo }, persistence: Persistence = { kind: 'none' }): McpServer {
  const { info } = about;
  const server = new McpServer({ name: about.name, version: about.version });

  server.registerTool(
    'memory_update',
    {
      title: 'Add an episode to memory',
      description:
        'Learn from a finished task: its instruction, the steps taken (action, observation, result) and the outcome (reward 0–1, success). Images may be passed as {data: base64, mime}.',
      inputSchema: { episode: EpisodeInputSchema, time: Time },
    },
    async ({ episode, time }) => {
      if (persistence.kind === 'refused') throw new Error(persistence.reason);
      const r = await memory.update(episode, time === undefined ? undefined : { time });
      if (persistence.kind === 'save') {
        try {
          await memory.save(persistence.dir);
        } catch (err) {
          throw new Error(`episode ${episode.taskId} is in memory but could not be saved: ${(err as Error).message}`, { cause: err });
        }
      }
      const stats = await memory.stats();
      return { content: [text(`stored episode ${episode.taskId} in ${r.ms} ms; the memory holds ${stats.episodes} episodes`)] };
    },
  );

  server.registerTool(
    'memory_retrieve',
    {
      title: 'Recall memory for a task',
      description: `What the memory (${info.node.id}, selected by automemo on ${info.run.env}) knows that helps with a task about to start: text, and images when it has any.`,
      inputSchema: { task: TaskInputSchema, time: Time },
    },
    async ({ task, time }) => {
      const r = await memory.retrieve(task, time === undefined ? undefined : { time });
      const images = r.images.flatMap((ref) => {
        const img = memory.image(ref.id);
        return img ? [{ type: 'image' as const, data: img.bytes.toString('base64'), mimeType: ref.mime }] : [];
      });
      return { content: [text(r.text), ...images] };
    },
  );

  server.registerTool(
    'memory_stats',
    {
      title: 'Memory statistics',
      description: 'Episodes ingested, kv and vector sizes, the program node and its scores.',
      inputSchema: {},
    },
    async () => {
      const s = await memory.stats();
      const report = {
        node: info.node.id,
        program: s.programHash,
        run: info.run,
        scores: info.scores,
        episodes: s.episodes,
        addedSinceStart: s.added,
        kv: s.kv,
        vectors: s.vectors,
        images: s.images,
        restored: s.restored,
        models: s.models,
      };
      return { content: [text(JSON.stringify(report, null, 2))] };
    },
  );
  return server;
}
