// A study's figures as inline SVG (no script, no external file): bars with intervals (the best design against each
// pick and the picks' mean), the transfer matrix as a heat map, and each search's best validation score over steps
// with its test score at the end. Scores are on a fixed 0–1 axis in every figure, as in the run viewer.
import type { EnvAnalysis, StudyAnalysis } from '../../engine/study/analysis.ts';
import { score } from './format.ts';

export const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The run viewer's scale: 0 red, 0.5 yellow, 1 green. */
export function scoreColour(x: number): string {
  const t = Math.max(0, Math.min(1, x));
  const hue = Math.round(120 * t);
  return `hsl(${hue}, 70%, ${t < 0.5 ? 55 : 45}%)`;
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

function axis(x0: number, y0: number, h: number, w: number): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((t) => {
      const y = y0 + h - t * h;
      return `<line x1="${x0}" x2="${x0 + w}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${x0 - 4}" y="${y + 4}" text-anchor="end" font-size="10">${t.toFixed(2)}</text>`;
    })
    .join('');
  return `${ticks}<line x1="${x0}" x2="${x0}" y1="${y0}" y2="${y0 + h}" stroke="#888"/>`;
}

interface Bar {
  label: string;
  value: number;
  /** An interval around the value: [low, high]. */
  interval?: [number, number];
  fill: string;
}

/** Bars for one environment: its best design, each pick on test, and the picks' mean with its 95% interval. */
export function envBars(e: EnvAnalysis): string {
  const bars: Bar[] = [];
  if (e.best?.test !== null && e.best?.test !== undefined)
    bars.push({ label: `best design: ${e.best.program}`, value: e.best.test, fill: '#8a8f98' });
  for (const p of e.picks)
    if (p.test !== null) bars.push({ label: `pick, seed ${p.seed}`, value: p.test, fill: '#5b8def' });
  if (e.picksTest.n > 0) {
    const hw = e.picksTest.halfWidth;
    bars.push({
      label: `picks: mean${hw !== undefined ? ' ± 95%' : ''}`,
      value: e.picksTest.mean,
      ...(hw !== undefined ? { interval: [e.picksTest.mean - hw, e.picksTest.mean + hw] as [number, number] } : {}),
      fill: '#2f5fb3',
    });
  }
  if (!bars.length) return '';
  const [x0, y0, h, bw, gap] = [40, 10, 160, 46, 18];
  const w = bars.length * (bw + gap) + gap;
  const body = bars
    .map((b, i) => {
      const x = x0 + gap + i * (bw + gap);
      const y = y0 + h - clamp01(b.value) * h;
      const whisker = b.interval
        ? (() => {
            const [lo, hi] = [y0 + h - clamp01(b.interval[0]) * h, y0 + h - clamp01(b.interval[1]) * h];
            const cx = x + bw / 2;
            return `<line x1="${cx}" x2="${cx}" y1="${lo}" y2="${hi}" stroke="#111" stroke-width="1.5"/><line x1="${cx - 8}" x2="${cx + 8}" y1="${lo}" y2="${lo}" stroke="#111"/><line x1="${cx - 8}" x2="${cx + 8}" y1="${hi}" y2="${hi}" stroke="#111"/>`;
          })()
        : '';
      const label = escapeXml(b.label);
      return `<g><title>${label}: ${score(b.value)}${b.interval ? ` [${score(b.interval[0])}, ${score(b.interval[1])}]` : ''}</title><rect x="${x}" y="${y}" width="${bw}" height="${y0 + h - y}" fill="${b.fill}"/>${whisker}<text x="${x + bw / 2}" y="${y - 3}" text-anchor="middle" font-size="10">${score(b.value)}</text><text transform="translate(${x + bw / 2},${y0 + h + 12}) rotate(30)" font-size="10">${label}</text></g>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="figure" width="${x0 + w + 20}" height="${y0 + h + 110}" role="img" aria-label="${escapeXml(e.name)}: test scores">${axis(x0, y0, h, w)}${body}</svg>`;
}

/** The transfer matrix as a heat map: rows searched on, columns tested on, the diagonal outlined. */
export function transferHeatMap(t: StudyAnalysis['transfer']): string {
  if (!t.cells.some((r) => r.some(Boolean))) return '';
  const n = t.names.length;
  const [cell, left, top] = [64, 150, 100];
  const names = t.names.map((s) => escapeXml(s.length > 22 ? `${s.slice(0, 21)}…` : s));
  const cols = names
    .map(
      (s, j) =>
        `<text transform="translate(${left + j * cell + cell / 2},${top - 6}) rotate(-35)" font-size="11">${s}</text>`,
    )
    .join('');
  const rows = names
    .map(
      (s, i) =>
        `<text x="${left - 6}" y="${top + i * cell + cell / 2 + 4}" text-anchor="end" font-size="11">${s}</text>`,
    )
    .join('');
  const cells = t.cells
    .flatMap((r, i) =>
      r.map((c, j) => {
        const [x, y] = [left + j * cell, top + i * cell];
        if (!c)
          return `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="#f4f4f4" stroke="#fff"/><text x="${x + cell / 2}" y="${y + cell / 2 + 4}" text-anchor="middle" font-size="11">—</text>`;
        const v = c.score.mean;
        const outline = i === j ? ' stroke="#111" stroke-width="2"' : ' stroke="#fff"';
        return `<g><title>searched on ${names[i]}, tested on ${names[j]}: ${score(v)} (n = ${c.score.n})</title><rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${scoreColour(v)}"${outline}/><text x="${x + cell / 2}" y="${y + cell / 2 + 4}" text-anchor="middle" font-size="12">${score(v)}</text></g>`;
      }),
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="figure" width="${left + n * cell + 20}" height="${top + n * cell + 20}" role="img" aria-label="transfer matrix">${cols}${rows}${cells}</svg>`;
}

const CURVE_COLOURS = ['#2f5fb3', '#d9822b', '#3a9d5d', '#b33a3a', '#7b4fb3', '#8a8f98'];

/** Each search's best validation score after each step, and its pick's test score as a dot at the end. */
export function searchCurves(e: EnvAnalysis): string {
  const curves = e.curves.filter((c) => c.points.length);
  if (!curves.length) return '';
  const maxStep = Math.max(1, ...curves.flatMap((c) => c.points.map((p) => p.step)));
  const [x0, y0, h, w] = [40, 10, 160, 360];
  const x = (step: number) => x0 + (step / (maxStep + 1)) * w;
  const y = (v: number) => y0 + h - clamp01(v) * h;
  const lines = curves
    .map((c, k) => {
      const colour = CURVE_COLOURS[k % CURVE_COLOURS.length] as string;
      const path = c.points.map((p, i) => `${i ? 'L' : 'M'}${x(p.step).toFixed(1)},${y(p.best).toFixed(1)}`).join(' ');
      const test =
        c.test !== null
          ? `<circle cx="${x(maxStep + 1)}" cy="${y(c.test)}" r="5" fill="${colour}"><title>seed ${c.seed}: test ${score(c.test)}</title></circle>`
          : '';
      return `<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"><title>seed ${c.seed}: best validation score over steps</title></path>${test}<text x="${x0 + w + 8}" y="${y0 + 12 + k * 14}" font-size="10" fill="${colour}">seed ${c.seed}</text>`;
    })
    .join('');
  const labels = `<text x="${x0}" y="${y0 + h + 14}" font-size="10">step 0</text><text x="${x(maxStep)}" y="${y0 + h + 14}" font-size="10" text-anchor="middle">${maxStep}</text><text x="${x(maxStep + 1)}" y="${y0 + h + 14}" font-size="10" text-anchor="middle">test</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="figure" width="${x0 + w + 70}" height="${y0 + h + 24}" role="img" aria-label="${escapeXml(e.name)}: best validation score over steps">${axis(x0, y0, h, w)}${lines}${labels}</svg>`;
}
