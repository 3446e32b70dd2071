// study.csv: one row per number a study reports (designs, picks, transfer cells), long format, for a spreadsheet
// or a plotting script. Values as the other outputs write them, unrounded.
import type { EnvAnalysis, StudyAnalysis } from '../../engine/study/analysis.ts';

const HEAD = [
  'environment',
  'kind',
  'program',
  'seed',
  'tested_on',
  'search_validation',
  'selection',
  'validation',
  'test',
  'diff_vs_best_test',
  'ci_low',
  'ci_high',
  'wins',
  'ties',
  'losses',
  'permutation_p',
  'sign_p',
  'significant',
];

/** A field quoted when it holds a comma, a quote or a line break; a leading =, +, - or @ is neutralised for spreadsheets. */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  if (/^[=+\-@]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function envRows(e: EnvAnalysis, label: string): (string | number | boolean | null | undefined)[][] {
  const rows: (string | number | boolean | null | undefined)[][] = [];
  for (const d of e.designs) rows.push([label, 'design', d.program, '', label, '', '', d.validation, d.test]);
  for (const p of e.picks) {
    const c = p.vsBestTest;
    rows.push([
      label,
      'pick',
      p.node ?? '',
      p.seed,
      label,
      p.validation,
      p.selection,
      '',
      p.test,
      c?.mean,
      c?.low,
      c?.high,
      c?.wins,
      c?.ties,
      c?.losses,
      c?.permutationP,
      c?.signP,
      c?.significant,
    ]);
    for (const r of p.readers) {
      const v = r.vsBest;
      rows.push([
        label,
        `pick under ${r.reader}${r.flag ? ' (flagged)' : ''}`,
        p.node ?? '',
        p.seed,
        label,
        '',
        '',
        '',
        r.pick,
        v?.mean,
        v?.low,
        v?.high,
        v?.wins,
        v?.ties,
        v?.losses,
        v?.permutationP,
        v?.signP,
        v?.significant,
      ]);
    }
  }
  return rows;
}

export function renderCsv(a: StudyAnalysis): string {
  const rows = [HEAD, ...a.envs.flatMap((e) => envRows(e, e.name))];
  if (a.joint) rows.push(...envRows(a.joint, `joint: ${a.joint.name}`));
  a.transfer.cells.forEach((r, i) =>
    r.forEach((c, j) => {
      if (c)
        rows.push([a.transfer.names[i], 'transfer', 'picks (mean)', '', a.transfer.names[j], '', '', '', c.score.mean]);
    }),
  );
  return `${rows.map((r) => r.map(csvField).join(',')).join('\n')}\n`;
}
