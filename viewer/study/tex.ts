// study.tex: a booktabs table a paper can \input (needs \usepackage{booktabs}): per environment the best standard
// design on test, the picks' test score across seeds with its 95% interval, the mean paired difference against the best
// design with its bootstrap interval and the permutation test's p, and the picks' search-validation score beside.
import type { EnvAnalysis, StudyAnalysis } from '../../engine/study/analysis.ts';
import { meanInterval } from '../../engine/study/statistics.ts';

/** Text set in LaTeX: its special characters escaped. */
export function texText(s: string): string {
  return s.replace(
    /[\\{}$&#%_^~]/g,
    (c) =>
      ({
        '\\': '\\textbackslash{}',
        '{': '\\{',
        '}': '\\}',
        $: '\\$',
        '&': '\\&',
        '#': '\\#',
        '%': '\\%',
        _: '\\_',
        '^': '\\^{}',
        '~': '\\~{}',
      })[c] as string,
  );
}

const num = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '--' : x.toFixed(3);
const sgn = (x: number) => `${x >= 0 ? '+' : '$-$'}${Math.abs(x).toFixed(3)}`;

function envLine(e: EnvAnalysis): string {
  const picks =
    e.picksTest.n === 0
      ? '--'
      : e.picksTest.halfWidth === undefined
        ? num(e.picksTest.mean)
        : `${num(e.picksTest.mean)} $\\pm$ ${num(e.picksTest.halfWidth)}`;
  const diffs = e.picks.flatMap((p) => (p.vsBestTest && p.vsBestTest.tasks > 0 ? [p.vsBestTest] : []));
  const d = meanInterval(diffs.map((c) => c.mean));
  const diff =
    diffs.length === 0
      ? '--'
      : diffs.length === 1
        ? `${sgn(diffs[0]!.mean)} [${sgn(diffs[0]!.low)}, ${sgn(diffs[0]!.high)}]`
        : `${sgn(d.mean)}${d.halfWidth !== undefined ? ` $\\pm$ ${num(d.halfWidth)}` : ''}`;
  const ps = diffs.map((c) => c.permutationP);
  const p = ps.length
    ? Math.max(...ps) < 0.001
      ? '$<$0.001'
      : ps.length === 1
        ? num(ps[0])
        : `${num(Math.min(...ps))}--${num(Math.max(...ps))}`
    : '--';
  const best = e.best ? `${texText(e.best.program)} & ${num(e.best.test)}` : '-- & --';
  return `${texText(e.name)} & ${best} & ${picks} & ${num(e.picksValidation.n ? e.picksValidation.mean : null)} & ${diff} & ${p} \\\\`;
}

export function renderTex(a: StudyAnalysis): string {
  const envs = [...a.envs, ...(a.joint ? [{ ...a.joint, name: `joint (${a.joint.name})` }] : [])];
  return [
    '% automemo study (generated from study.json; needs \\usepackage{booktabs})',
    `% protocol: ${a.protocol.replace(/\n/g, ' ')}`,
    '% picks: mean $\\pm$ 95% t-interval across search seeds; difference: pick $-$ best design, task by task on test',
    "% (one seed: 95% bootstrap interval; several: mean $\\pm$ t-interval of the seeds' differences); p: paired permutation test",
    '\\begin{tabular}{llrrrrr}',
    '\\toprule',
    'Environment & Best design & Test & Picks (test) & Picks (validation) & $\\Delta$ vs best & $p$ \\\\',
    '\\midrule',
    ...envs.map(envLine),
    '\\bottomrule',
    '\\end{tabular}',
    '',
  ].join('\n');
}
