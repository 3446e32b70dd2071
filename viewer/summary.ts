// The report's text form: what ran, on what, the nodes with their means, evaluations and LCBs, the selected
// program and its test score.
import type { RunView } from './run-model.ts';
import { protocolStatement } from '../engine/environment/protocol.ts';

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
const clipped = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function textSummary(run: RunView): string {
  const o = run.info.options;
  const env = run.info.env as { name?: string; mode?: string; reward?: string };
  const winner = run.nodes.find((n) => n.id === run.winner);
  const lines = [
    `run         ${run.dir} (${run.status}${run.pid ? `, pid ${run.pid}` : ''}; created ${run.info.createdAt})`,
    `env         ${o.env} — ${env.mode ?? '?'}${env.reward ? `: ${env.reward}` : ''}`,
    ...(run.info.envSource?.kind === 'module'
      ? [`env module  ${run.info.envSource.path} (${run.info.envSource.files} files, hash ${run.info.envSource.hash})`]
      : []),
    `search      meta agent ${o.meta}, policy ${o.policy}, selection ${o.selection}, budget ${o.budget} (${run.completedSteps} done), eval fraction ${o.evalFraction}, seed ${o.seed}`,
    `protocol    ${protocolStatement(o.protocol)}`,
    `evaluations ${run.N} validation; ${run.nodes.filter((n) => n.kind === 'child').length} children written, ${run.failures.length} failed generations, ${run.noops.length} that changed nothing (not evaluated)`,
    `model spend ${run.spend.calls} meta calls, ${run.spend.tokens} tokens${run.spend.cachedTokens ? ` (${run.spend.cachedTokens} prompt tokens from the endpoint's cache)` : ''}${run.spend.usd !== null ? `, $${run.spend.usd.toFixed(4)}` : ''}`,
  ];
  if (run.validation) {
    const v = run.validation;
    lines.push(
      `validation  ${v.tasks} tasks, ${v.perEvaluation} per evaluation (${v.samples} sample${v.samples === 1 ? '' : 's'}); a score on ${v.perEvaluation} tasks is known to ±${v.resolvable.toFixed(3)}`,
    );
    if (v.selection)
      lines.push(
        `selection   ${v.selection.tasks} validation tasks held out for selection only (never shown to the meta agent; the pick is chosen there, ±${v.selection.resolvable.toFixed(3)})`,
      );
    if (v.warning) lines.push(`warning     ${v.warning}`);
  }
  if (run.screen)
    lines.push(
      `screened    ${run.screen.map((d) => `${d.design} ${fmt(d.score)}${d.kept ? ' (kept)' : ''}`).join(', ')}`,
    );
  if (run.torn) lines.push(`journal     line ${run.torn.line} is torn (cut off mid-write) and was not counted`);
  const what = (n: RunView['nodes'][number]) =>
    n.kind === 'root' ? 'no memory' : n.kind === 'seed' ? (n.design ?? '') : (n.edit?.label ?? '');
  const test = (n: RunView['nodes'][number]) => (n.testScore === undefined ? 'not run' : fmt(n.testScore));
  const rows = [
    ['node', 'kind', 'parent', 'step', 'mean', 'n', 'LCB', 'test', 'edit / design', ''],
    ...run.nodes.map((n) => [
      n.id,
      n.kind,
      n.parent ?? '',
      String(n.step),
      fmt(n.q),
      String(n.n),
      fmt(n.lcb),
      test(n),
      clipped(what(n), 60),
      n.id === run.winner ? `← ${run.digest.pickWord}` : '',
    ]),
  ];
  lines.push('', ...run.digest.lines, '', table(rows), '');
  // Evaluations that scored nothing are in no mean above; say which, and why.
  for (const n of run.nodes) {
    for (const u of n.unscored)
      lines.push(
        `unscored: ${n.id} ${u.split === 'train' ? 'validation' : 'test'} evaluation at step ${u.step}: ${u.reason}`,
      );
  }
  if (run.nodes.some((n) => n.unscored.length)) lines.push('');
  if (winner) {
    lines.push(
      `selected (${o.selection}): ${winner.id} — validation ${fmt(winner.q)} (n=${winner.n}, LCB ${fmt(winner.lcb)}), test ${fmt(winner.testScore)}`,
    );
  } else lines.push('selected: none yet (no node has been evaluated)');
  if (run.final && run.final.winner !== run.winner)
    lines.push(`(the run's last final phase selected ${run.final.winner}; the tree has changed since)`);
  if (run.final?.tieNote) lines.push(`tie: ${run.final.tieNote}`);
  return lines.join('\n');
}
