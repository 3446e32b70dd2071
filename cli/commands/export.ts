// automemo export <run>: one program of a search run as a package — an npm library (createMemory) or, with
// --format mcp, also an MCP server — carrying the memory it built from the run's update episodes.
import { relative } from 'node:path';
import { z } from 'zod';
import { exportRun, type ExportResult, shippedLine } from '../../api/export.ts';
import { parse } from '../args.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStdout } from '../terminal.ts';

export const usage = `automemo export <run-folder> [--node ID | --lcb] --out DIR [options]

Exports one program of a search run as a package that runs it in automemo's
sandbox and starts from the memory it built from the run's update episodes.

Options:
  --node ID          the node to export (see the run's journal or viewer)
  --lcb              the run's selected program (default): its final winner, or
                     the best lower confidence bound when the run has no final
  --out DIR          where the package goes (must not exist, or be empty)
  --format F         npm (default): a library with createMemory(); mcp: the same
                     plus an MCP server (stdio) with memory_update,
                     memory_retrieve and memory_stats tools
  --native M         bundle (default): isolated-vm and hnswlib-node go inside the
                     package prebuilt for this platform, so installing compiles
                     nothing; source: they compile on install (any platform)
  --name NAME        npm package name (default automemo-memory-<env>-<node>,
                     with -mcp after it for --format mcp)
  --trust-run        run the environment module the run folder names even when
                     this user's automemo did not make the run (a folder from
                     someone else); without it such a run is refused before
                     any of its code runs
  --json             print the result as JSON

Exit status: 0 exported, 1 failed, 2 bad arguments.`;

const Args = z
  .object({
    positionals: z.array(z.string()).length(1, 'give exactly one run folder'),
    node: z.string().min(1).optional(),
    lcb: z.boolean().optional(),
    out: z.string({ error: 'give --out, the folder for the package' }).min(1),
    format: z.enum(['npm', 'mcp']).optional(),
    native: z.enum(['bundle', 'source']).optional(),
    name: z
      .string()
      .regex(/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/, 'not a valid npm package name (lowercase letters, digits, . _ -)')
      .optional(),
    'trust-run': z.boolean().optional(),
    json: z.boolean().optional(),
  })
  .refine((a) => !(a.node && a.lcb), { message: '--node and --lcb exclude each other' });

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    {
      node: { type: 'string' },
      lcb: { type: 'boolean' },
      out: { type: 'string' },
      format: { type: 'string' },
      native: { type: 'string' },
      name: { type: 'string' },
      'trust-run': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    Args,
  );
  const result = await exportRun({
    run: a.positionals[0] as string,
    out: a.out,
    format: a.format ?? 'npm',
    ...(a.node ? { node: a.node } : {}),
    ...(a.native ? { native: a.native } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a['trust-run'] ? { trustRun: true } : {}),
    onNote: noteToStderr,
  });
  if (a.json) {
    toStdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  toStdout(`${report(result)}\n`);
  return 0;
}

const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function report(r: ExportResult): string {
  const { info, memory } = r;
  const out = relative(process.cwd(), r.out) || r.out;
  const rows: [string, string][] = [
    ['node', `${info.node.id} (${{ final: "the run's final choice", lcb: 'best LCB', node: 'named' }[info.node.chosenBy]})`],
    ['scores', `validation ${fmt(info.scores.validation)} (n=${info.scores.n}, LCB ${fmt(info.scores.lcb)}), test ${fmt(info.scores.test)}`],
    ['memory', `${memory.episodes} update episodes from ${memory.worlds.length} worlds${memory.updateErrors.length ? ` (${memory.updateErrors.length} failed in update)` : ''}; kv ${memory.kv.keys} keys, ${memory.vectors.length} vector indices (${memory.vectors.map((v) => v.size).join(', ') || 'none'} vectors)`],
    ['this memory', shippedLine(memory)],
    ['models', `embeddings ${memory.models.embed}; memo ${memory.models.memo}`],
    ['native', info.native.mode === 'bundle' ? `bundled, prebuilt for ${info.native.platform}-${info.native.arch} (ABI ${info.native.abi})` : 'compiled on install'],
    ['time', `${secs(r.timings.totalMs)} (memory ${secs(r.timings.memoryMs)}, bundle ${secs(r.timings.bundleMs)})`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = [`${bold('automemo export')} — ${r.name} (${info.formatKind}) in ${out}`, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`), ''];
  lines.push(`Next: cd ${out} && npm pack, then npm install <the .tgz> in your project;`);
  lines.push(`      import { createMemory } from '${r.name}' (run node with --no-node-snapshot)`);
  if (r.bin) lines.push(`      MCP server: npx ${r.bin} [--memory-dir DIR]`);
  return lines.join('\n');
}
