// study.html: the study as one self-contained page (no script, figures as inline SVG), and what `automemo view` serves
// for a study folder. Each search links to its run: in the file, to the run's report.html beside it; in the viewer, to
// the run's own live viewer.
import type { EnvAnalysis, StudyAnalysis } from '../../engine/study/analysis.ts';
import type { StudyFile } from '../../engine/study/study-file.ts';
import { comparison, interval, score, signed } from './format.ts';
import { studyHeader } from './markdown.ts';
import { envBars, escapeXml, searchCurves, transferHeatMap } from './svg.ts';

/** Where a search's run is shown: its report file (static page) or its viewer (served); undefined: no link. */
export type RunLink = (run: string) => string | undefined;

export const staticRunLink: RunLink = (run) => `${run.split('/').map(encodeURIComponent).join('/')}/report.html`;

const cells = (tag: 'td' | 'th', xs: string[]) => `<tr>${xs.map((x) => `<${tag}>${x}</${tag}>`).join('')}</tr>`;
const table = (head: string[], rows: string[][]) =>
  `<table><thead>${cells('th', head.map(escapeXml))}</thead><tbody>${rows.map((r) => cells('td', r)).join('')}</tbody></table>`;
/** Inline Markdown of the header lines (`code`, **bold**) as HTML, after escaping. */
const inline = (s: string) =>
  escapeXml(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');

function envHtml(e: EnvAnalysis, link: RunLink, title: string): string {
  const parts = [`<section><h2>${escapeXml(title)}</h2>`];
  if (e.reward) parts.push(`<p>Reward: ${escapeXml(e.reward)}.</p>`);
  if (e.error) parts.push(`<p class="error">Not run: ${escapeXml(e.error)}</p>`);
  parts.push(envBars(e));
  if (e.designs.length)
    parts.push(
      '<h3>Standard designs (the floor)</h3>',
      table(
        ['design', 'validation', 'test', 'test tasks'],
        e.designs.map((d) => [
          d.program === e.best?.program ? `<b>${escapeXml(d.program)}</b>` : escapeXml(d.program),
          score(d.validation),
          score(d.test),
          String(d.tasks),
        ]),
      ),
    );
  if (e.picks.length) {
    parts.push(
      '<h3>Searches</h3>',
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
        e.picks.map((p) => {
          const href = link(p.run);
          return [
            String(p.seed),
            escapeXml(p.node ?? (p.error ? `failed: ${p.error.slice(0, 160)}` : '—')),
            score(p.validation),
            score(p.selection),
            score(p.test),
            signed(p.gap),
            escapeXml(comparison(p.vsBestTest)),
            escapeXml(comparison(p.vsBestValidation)),
            href ? `<a href="${escapeXml(href)}">${escapeXml(p.run)}</a>` : escapeXml(p.run),
          ];
        }),
      ),
      `<p>Picks across seeds: test ${escapeXml(interval(e.picksTest))}; search validation ${escapeXml(interval(e.picksValidation))}${e.picksSelection.n ? `; selection ${escapeXml(interval(e.picksSelection))}` : ''} (${escapeXml(e.picksTest.method)}).</p>`,
      `<ul>${e.picks
        .filter((p) => p.sentence)
        .map((p) => `<li>${escapeXml(p.sentence as string)}</li>`)
        .join('')}</ul>`,
      ...readersHtml(e),
      "<h3>Best validation score over steps (dot: the pick's test score)</h3>",
      searchCurves(e),
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The picks and the best design under the environment's other readers, with the gains that do not hold flagged. */
function readersHtml(e: EnvAnalysis): string[] {
  const readers = [...new Set(e.picks.flatMap((p) => p.readers.map((r) => r.reader)))];
  if (!readers.length) return [];
  const rows = readers.map((reader) => {
    const checks = e.picks.map((p) => p.readers.find((r) => r.reader === reader));
    return [
      escapeXml(reader),
      score(checks.find((c) => c)?.best ?? null),
      ...checks.map((c) => (c ? `${score(c.pick)} (${escapeXml(comparison(c.vsBest))})` : '—')),
    ];
  });
  const flags = e.picks.flatMap((p) => p.readers.flatMap((r) => (r.flag ? [r.flag] : [])));
  return [
    '<h3>Under other readers (test)</h3>',
    table(['reader', e.best?.program ?? 'best design', ...e.picks.map((p) => `pick, seed ${p.seed}`)], rows),
    flags.length
      ? `<ul>${flags.map((f) => `<li class="error"><b>Flag:</b> ${escapeXml(f)}</li>`).join('')}</ul>`
      : "<p>Every gain under the search's reader holds under the other readers (or there was none).</p>",
  ];
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}
table{border-collapse:collapse;margin:8px 0 14px}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;font-size:13px}
th{background:#f6f6f6}section{margin:26px 0}.figure{display:block;margin:8px 0}.error{color:#a00}code{background:#f3f3f3;padding:0 3px}`;

export function renderHtml(study: StudyFile, a: StudyAnalysis, link: RunLink = staticRunLink): string {
  const body = [
    '<h1>Study</h1>',
    `<ul>${studyHeader(study)
      .map((l) => `<li>${inline(l.replace(/^- /, ''))}</li>`)
      .join('')}</ul>`,
    ...a.envs.map((e) => envHtml(e, link, e.name === e.spec ? e.name : `${e.name} (${e.spec})`)),
  ];
  const heat = transferHeatMap(a.transfer);
  if (heat)
    body.push(
      "<section><h2>Transfer</h2><p>Each environment's picks on every environment's test split (rows: searched on; columns: tested on). The design transfers, not the memory. The outlined diagonal is each search's own test score.</p>",
      heat,
      '</section>',
    );
  if (a.joint) body.push(envHtml(a.joint, link, `Joint search: ${a.joint.name}`));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>automemo study</title><style>${STYLE}</style></head><body>${body.join('\n')}</body></html>\n`;
}
