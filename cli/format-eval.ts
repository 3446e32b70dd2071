// Tables of evaluation results for the terminal.
import { protocolStatement, splitName } from '../api/evaluate.ts';
import type { EvaluationResult, Protocol } from '../api/index.ts';
import { bold, dim } from './style.ts';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));

export function evalTable(rows: { name: string; result: EvaluationResult }[]): string {
  const model = rows.some((r) => r.result.env.mode === 'model');
  const header = ['program', 'score', ...(model ? ['F1', 'evid. recall'] : []), 'payload chars', 'retrieve p50 ms', 'p95 ms', 'update ms/ep', 'failed', 'truncated'];
  const body = rows.map(({ name, result: r }) => [
    name,
    pct(r.score),
    ...(model ? [pct(r.stats.metrics.f1), pct(r.stats.metrics.evidenceRecall)] : []),
    String(r.stats.meanPayloadChars),
    r.stats.retrieveP50Ms.toFixed(2),
    r.stats.retrieveP95Ms.toFixed(2),
    r.stats.updateMsPerEpisode.toFixed(1),
    `${r.stats.programFailed}${r.stats.infraFailed ? ` (+${r.stats.infraFailed} infra)` : ''}`,
    String(r.stats.truncated),
  ]);
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  return [bold(line(header)), ...body.map(line)].join('\n');
}

export function evalHeader(r: EvaluationResult, where?: string, protocol?: Protocol): string {
  const d = r.env.data as { conversations?: number; questions?: number; warnings?: string[] };
  const scope = `${r.tasks.length} ${splitName(r.split)} tasks in ${r.worlds.length} worlds`;
  const lines = [
    `${bold(r.env.name)} — mode: ${r.env.mode}; reward: ${r.env.reward}; budget ${r.env.budget.maxChars} chars / ${r.env.budget.maxImages} images; ${scope}${where ? `; evaluated ${where}` : ''}`,
  ];
  if (protocol) lines.push(`  ${protocolStatement(protocol)}`);
  if (d.warnings?.length) lines.push(dim(`  data warnings: ${d.warnings.length} (first: ${d.warnings[0]})`));
  return lines.join('\n');
}

export function scenarioTable(rows: { name: string; result: EvaluationResult }[]): string {
  const scenarios = [...new Set(rows.flatMap((r) => Object.keys(r.result.stats.byScenario)))].sort();
  const header = ['program', ...scenarios];
  const body = rows.map(({ name, result }) => [name, ...scenarios.map((s) => pct(result.stats.byScenario[s]?.score))]);
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  return all.map((row, i) => {
    const text = row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
    return i === 0 ? bold(text) : text;
  }).join('\n');
}

/**
 * Each program's score by source, for an environment composed of several (--env a,b,c): the score above is the mean
 * of these (each source weighs the same, whatever its number of tasks). Nothing for one source.
 */
export function sourceLines(rows: { name: string; result: EvaluationResult }[]): string {
  const with_ = rows.filter((r) => r.result.stats.bySource);
  if (!with_.length) return '';
  const lines = with_.map(({ name, result }) => `  ${name}: ${Object.entries(result.stats.bySource ?? {}).map(([s, v]) => `${s} ${pct(v.score)} (${v.tasks} tasks)`).join(', ')}`);
  return `\nby source (the score is their mean: each source weighs the same, whatever its number of tasks):\n${lines.join('\n')}\n`;
}
