// Human-readable quick-examination reports for the terminal.
import type { QuickExamReport } from '../api/index.ts';
import { bold, dim, ok, red } from './style.ts';

export function formatQuickExam(r: QuickExamReport): string {
  const lines: string[] = [];
  lines.push(`${bold(r.program)}  ${r.passed ? bold('PASSED') : red(bold('FAILED'))}`);
  lines.push(dim(`  mode: embed ${r.modes.embed}; memo model ${r.modes.memo}`));
  const width = Math.max(...r.checks.map((c) => c.name.length));
  for (const c of r.checks) {
    const [first, ...rest] = c.message.split('\n');
    const at = c.location && !c.ok ? dim(`  [${c.location}]`) : '';
    lines.push(`  ${ok(c.ok)} ${c.name.padEnd(width)}  ${first ?? ''}${at}`);
    for (const more of rest) lines.push(`    ${' '.repeat(width)}  ${more}`);
  }
  const t = r.timings;
  lines.push(
    dim(
      `  time: ${t.totalMs} ms (compile ${t.compileMs}, type-check ${t.typecheckMs}, load ${t.loadMs}, update ${t.updateMs}, retrieve ${t.retrieveMs})`,
    ),
  );
  if (r.usage) {
    const prims = Object.entries(r.usage.primitives)
      .map(([k, u]) => `${k} ${u.calls}×${u.errors ? ` (${u.errors} failed)` : ''}`)
      .join(', ');
    const { pending, cancelled } = r.usage.embedCalls;
    const waiting = `${pending ? `; ${pending} embed call${pending === 1 ? '' : 's'} still pending` : ''}${cancelled ? `; ${cancelled} cancelled` : ''}`;
    lines.push(dim(`  primitives: ${prims || 'none'}${waiting}; kv ${r.usage.kvBytes} B; vectors ${(r.usage.vectorBytes / 1024).toFixed(0)} KB reserved`));
  }
  for (const p of r.payloads.slice(0, 3)) {
    const preview = p.preview.replace(/\s+/g, ' ').slice(0, 100);
    lines.push(dim(`  payload ${p.taskId}: ${p.textChars} chars, ${p.images} images${preview ? ` — "${preview}${p.textChars > 100 ? '…' : ''}"` : ''}`));
  }
  return lines.join('\n');
}
