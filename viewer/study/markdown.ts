// study.md: the study as a reviewer reads it — per environment the floor, each search's pick with its search-validation,
// selection and test scores, the picks across seeds with their interval, the paired tests against the best design
// and the sentence that says whether a difference is significant; then the transfer matrix and the joint search.
import type { EnvAnalysis, StudyAnalysis } from '../../engine/study/analysis.ts';
import type { StudyFile } from '../../engine/study/study-file.ts';
import { comparison, interval, score, signed, SOURCE_WEIGHTING } from './format.ts';

const row = (cells: (string | number)[]) =>
  `| ${cells.map((c) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;
const table = (head: string[], rows: (string | number)[][]) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

export function studyHeader(study: StudyFile): string[] {
  const o = study.options;
  return [
    `- environments: ${o.envs.map((e) => `\`${e}\``).join(', ')}`,
    `- searches: ${o.runSeeds.length} per environment (run seeds ${o.runSeeds.join(', ')}; split seed ${o.splitSeed}: every search, the floor and the transfer share one test split), budget ${o.budget}, meta agent ${o.meta}`,
    `- protocol: ${study.protocol}`,
    `- floor: the standard designs ${o.designs.join(', ')}; the best design is the one with the best test score (the most favourable floor to beat)`,
    `- scoring: ${SOURCE_WEIGHTING}`,
    `- statistics: picks across seeds as mean ± the 95% t-interval; paired differences task by task (pick − best design) with a 95% percentile-bootstrap interval (10,000 seeded resamples), wins/ties/losses, and a two-sided paired permutation test (exact up to 16 differing tasks) beside an exact sign test; significant means permutation p < 0.05`,
    ...(study.evaluation ? [`- evaluations ran ${study.evaluation}`] : []),
    `- status: ${study.status}${study.wallMs !== undefined ? `; wall time ${(study.wallMs / 1000).toFixed(0)} s` : ''}`,
  ];
}

function bySourceLines(
  label: string,
  by: { source: string; tasks: number; score: number | null }[] | undefined,
): string[] {
  if (!by?.length) return [];
  return [`- ${label} by source: ${by.map((s) => `${s.source} ${score(s.score)} (${s.tasks} tasks)`).join(', ')}`];
}

/** The picks and the best design under the environment's other readers, and the gains that do not hold. */
function readerLines(a: EnvAnalysis): string[] {
  const readers = [...new Set(a.picks.flatMap((p) => p.readers.map((r) => r.reader)))];
  if (!readers.length) return [];
  const rows = readers.map((reader) => {
    const checks = a.picks.map((p) => p.readers.find((r) => r.reader === reader));
    const best = checks.find((c) => c)?.best ?? null;
    return [reader, score(best), ...checks.map((c) => (c ? `${score(c.pick)} (${comparison(c.vsBest)})` : '—'))];
  });
  const out = [
    'Under other readers (test; the same payloads, scored by rules the search did not optimise):',
    '',
    table(['reader', `${a.best?.program ?? 'best design'}`, ...a.picks.map((p) => `pick, seed ${p.seed}`)], rows),
    '',
  ];
  const flags = a.picks.flatMap((p) => p.readers.flatMap((r) => (r.flag ? [r.flag] : [])));
  out.push(
    ...(flags.length
      ? flags.map((f) => `- **Flag:** ${f}.`)
      : ["- Every gain under the search's reader holds under the other readers (or there was none)."]),
    '',
  );
  return out;
}

export function envSection(a: EnvAnalysis, heading = '##'): string[] {
  const out = [`${heading} ${a.name}${a.name !== a.spec ? ` (\`${a.spec}\`)` : ''}`, ''];
  if (a.reward) out.push(`Reward: ${a.reward}.`, '');
  if (a.error) out.push(`**Not run:** ${a.error}`, '');
  if (a.designs.length) {
    out.push('Standard designs (the floor):', '');
    out.push(
      table(
        ['design', 'validation', 'test', 'test tasks'],
        a.designs.map((d) => [
          d.program === a.best?.program ? `**${d.program}**` : d.program,
          score(d.validation),
          score(d.test),
          d.tasks,
        ]),
      ),
    );
    out.push('');
    if (a.best)
      out.push(
        `Best design on test: **${a.best.program}** (${score(a.best.test)}).`,
        ...bySourceLines(a.best.program, a.best.bySource),
        '',
      );
  }
  if (a.picks.length) {
    out.push('Searches (one per run seed):', '');
    out.push(
      table(
        [
          'seed',
          'pick',
          'search validation',
          'selection',
          'test',
          'test − validation',
          'vs best on test',
          'vs best on validation',
          'run',
        ],
        a.picks.map((p) => [
          p.seed,
          p.node ?? (p.error ? `failed: ${p.error.slice(0, 120)}` : '—'),
          score(p.validation),
          score(p.selection),
          score(p.test),
          signed(p.gap),
          comparison(p.vsBestTest),
          comparison(p.vsBestValidation),
          p.run,
        ]),
      ),
    );
    out.push('');
    out.push(
      `Picks across seeds: test ${interval(a.picksTest)}; search validation ${interval(a.picksValidation)}${a.picksSelection.n ? `; selection ${interval(a.picksSelection)}` : ''} (${a.picksTest.method}).`,
    );
    out.push('');
    for (const p of a.picks) {
      if (p.sentence) out.push(`- ${p.sentence}`);
      out.push(...bySourceLines(`the pick of seed ${p.seed}`, p.bySource));
    }
    out.push('');
    out.push(...readerLines(a));
  }
  return out;
}

function transferSection(t: StudyAnalysis['transfer']): string[] {
  if (!t.cells.some((r) => r.some(Boolean))) return [];
  const head = ['searched on ↓ / tested on →', ...t.names];
  const rows = t.cells.map((r, i) => [t.names[i] as string, ...r.map((c) => (c ? interval(c.score) : '—'))]);
  return [
    '## Transfer',
    '',
    "Each environment's picks evaluated on every environment's test split: the design transfers, not the memory (on another environment it learns from that environment's update episodes). The diagonal is each search's own test score.",
    '',
    table(head, rows),
    '',
  ];
}

export function renderMarkdown(study: StudyFile, a: StudyAnalysis): string {
  const out = ['# Study', '', ...studyHeader(study), ''];
  for (const e of a.envs) out.push(...envSection(e));
  out.push(...transferSection(a.transfer));
  if (a.joint) out.push(...envSection(a.joint, '## Joint search:'));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
