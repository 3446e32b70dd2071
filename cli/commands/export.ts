// automemo export <run>: one program of a search run as a package — an npm library (createMemory) or, with
// --format mcp, also an MCP server — carrying the memory it built from the run's update episodes.
import { relative } from 'node:path';
import { z } from 'zod';
import { exportRun, type ExportResult, shippedLine } from '../../api/export.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { parse, UsageError } from '../args.ts';
import { bold, noteToStderr } from '../style.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'export',
  `automemo export <run-folder> [--node ID | --lcb] --out DIR [options]

Exports one program of a search run as a package that runs it in automemo's
sandbox and starts from the memory it built from the run's update episodes.`,
  'Exit status: 0 exported, 1 failed, 2 bad arguments.',
);

export async function run(argv: string[]): Promise<number> {
  const positionals = z.array(z.string()).length(1, 'give exactly one run folder');
  const {
    json,
    lcb,
    positionals: [run],
    ...a
  } = parse('export', argv, { positionals });
  if (a.node && lcb) throw new UsageError('--node and --lcb exclude each other');
  const result = await exportRun({ ...a, run: run as string, onNote: noteToStderr });
  if (json) {
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
    [
      'node',
      `${info.node.id} (${{ final: "the run's final choice", lcb: 'best LCB', node: 'named' }[info.node.chosenBy]})`,
    ],
    [
      'scores',
      `validation ${fmt(info.scores.validation)} (n=${info.scores.n}, LCB ${fmt(info.scores.lcb)}), test ${fmt(info.scores.test)}`,
    ],
    [
      'memory',
      `${memory.episodes} update episodes from ${memory.worlds.length} worlds${memory.updateErrors.length ? ` (${memory.updateErrors.length} failed in update)` : ''}; kv ${memory.kv.keys} keys, ${memory.vectors.length} vector indices (${memory.vectors.map((v) => v.size).join(', ') || 'none'} vectors)`,
    ],
    ['this memory', shippedLine(memory)],
    ['models', `embeddings ${memory.models.embed}; memo ${memory.models.memo}`],
    [
      'native',
      info.native.mode === 'bundle'
        ? `bundled, prebuilt for ${info.native.platform}-${info.native.arch} (ABI ${info.native.abi})`
        : 'compiled on install',
    ],
    ['time', `${secs(r.timings.totalMs)} (memory ${secs(r.timings.memoryMs)}, bundle ${secs(r.timings.bundleMs)})`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = [
    `${bold('automemo export')} — ${r.name} (${info.formatKind}) in ${out}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`),
    '',
  ];
  lines.push(`Next: cd ${out} && npm pack, then npm install <the .tgz> in your project;`);
  lines.push(`      import { createMemory } from '${r.name}' (run node with --no-node-snapshot)`);
  if (r.bin) lines.push(`      MCP server: npx ${r.bin} [--memory-dir DIR]`);
  return lines.join('\n');
}
