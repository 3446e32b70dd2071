// Tools of the charts family, all computed from pixels: bars (solid colour blocks standing on one baseline),
// axis (tick numbers read by OCR and a linear fit from image height to value), legend (colour swatch → the
// label printed to its right) and slices (pie slices as colour pixel shares). Conventions that change the
// answer — which axis, which slice is left out of the total — are the call's box or arguments, so a replayed
// call applies the same convention.
import { type Blob, findBlobs } from './blobs.ts';
import { boxOf, formatBox, imageOf, regionOf } from './common.ts';
import type { Box } from './grammar.ts';
import { type OcrWord, recognize } from './ocr.ts';
import { crop, toBox } from './pixels.ts';
import type { ToolSpec } from './types.ts';

// --- bars ------------------------------------------------------------------------------------------------

export interface BarData {
  color: string;
  hex: string;
  box: Box;
  /** Horizontal centre, 0–999. */
  center: number;
  /** Pixel rows of the bar's top and bottom (inclusive) and its height. */
  topPx: number;
  bottomPx: number;
  heightPx: number;
}

const SOLID = 0.85;
const isInk = (b: Blob) => b.color === 'black' || b.color === 'gray';

/** Solid coloured blocks whose bottoms sit on the most common bottom row (the baseline); swatches and lines are not bars. */
export function barsOf(blobs: Blob[]): Blob[] {
  const solid = blobs.filter((b) => !isInk(b) && b.fill >= SOLID && b.x1 - b.x0 + 1 >= 10 && b.y1 - b.y0 + 1 >= 3);
  const votes = new Map<number, number>();
  for (const b of solid) votes.set(b.y1, (votes.get(b.y1) ?? 0) + 1);
  let baseline = -1;
  let best = 0;
  for (const [y, n] of votes) {
    const near = n + (votes.get(y - 1) ?? 0) + (votes.get(y + 1) ?? 0);
    if (near > best) [baseline, best] = [y, near];
  }
  return solid.filter((b) => Math.abs(b.y1 - baseline) <= 2).sort((a, b) => a.x0 - b.x0);
}

export const barsTool: ToolSpec = {
  name: 'bars',
  usage: 'bars [x1,y1,x2,y2] (image=N)',
  summary: 'solid bars standing on a common baseline in the box, left to right: colour, box, top and bottom row in pixels, height in pixels',
  async run(call, ctx) {
    const { box, r, area } = await regionOf(call, ctx);
    const bars: BarData[] = barsOf(findBlobs(r, area, { minPixels: 40 })).map((b) => {
      const bb = toBox(b, r.width, r.height);
      return { color: b.color, hex: b.hex, box: bb, center: Math.round((bb[0] + bb[2]) / 2), topPx: b.y0, bottomPx: b.y1, heightPx: b.y1 - b.y0 + 1 };
    });
    const text = bars.length
      ? bars.map((b) => `${b.color} ${formatBox(b.box)} top ${b.topPx}px bottom ${b.bottomPx}px height ${b.heightPx}px`).join('\n')
      : `no bars in ${formatBox(box)}`;
    return { text, data: { box, bars, imageHeight: r.height } };
  },
};

// --- OCR with exact pixel positions ----------------------------------------------------------------------

export interface PxWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Words in the box, positioned in pixels of the whole image (readable lines only). */
async function wordsIn(png: Buffer, box: Box): Promise<PxWord[]> {
  const c = await crop(png, box, { target: 1600, maxScale: 4 });
  const out = await recognize(c.png);
  const map = (w: OcrWord): PxWord => ({
    text: w.text,
    x0: c.px.left + w.x0 / c.scale,
    y0: c.px.top + w.y0 / c.scale,
    x1: c.px.left + w.x1 / c.scale,
    y1: c.px.top + w.y1 / c.scale,
  });
  return out.lines.filter((l) => !l.unreadable).flatMap((l) => l.words.map(map));
}

/** The lines of OCR output in pixels: the words grouped as the OCR grouped them. */
async function linesIn(png: Buffer, box: Box): Promise<{ text: string; x0: number; y0: number; x1: number; y1: number }[]> {
  const c = await crop(png, box, { target: 1600, maxScale: 4 });
  const out = await recognize(c.png);
  return out.lines
    .filter((l) => !l.unreadable)
    .map((l) => ({ text: l.text, x0: c.px.left + l.x0 / c.scale, y0: c.px.top + l.y0 / c.scale, x1: c.px.left + l.x1 / c.scale, y1: c.px.top + l.y1 / c.scale }));
}

// --- axis ------------------------------------------------------------------------------------------------

/** A tick label as a number; OCR's usual letter-for-digit slips are undone. */
export function tickNumber(s: string): number | undefined {
  const t = s.replace(/[Oo]/g, '0').replace(/[lI|]/g, '1').replace(/S/g, '5').replace(/[,\s]/g, '');
  const m = t.match(/^[^\d-]*(-?\d+(?:\.\d+)?)[^\d]*$/);
  return m ? Number(m[1]) : undefined;
}

export interface AxisFit {
  /** value = a + b · y, y the pixel row. */
  a: number;
  b: number;
  ticks: { value: number; yPx: number }[];
}

/** The line through the most tick labels (all pairs tried: a misread label is left out), refined by least squares. */
export function fitTicks(ticks: { value: number; yPx: number }[]): AxisFit | undefined {
  if (ticks.length < 2) return undefined;
  const values = ticks.map((t) => t.value);
  const tol = 0.02 * (Math.max(...values) - Math.min(...values) || 1);
  let inliers: typeof ticks = [];
  for (let i = 0; i < ticks.length; i++)
    for (let j = i + 1; j < ticks.length; j++) {
      const p = ticks[i] as { value: number; yPx: number };
      const q = ticks[j] as { value: number; yPx: number };
      if (Math.abs(p.yPx - q.yPx) < 5 || p.value === q.value) continue;
      const b = (q.value - p.value) / (q.yPx - p.yPx);
      const a = p.value - b * p.yPx;
      const fit = ticks.filter((t) => Math.abs(a + b * t.yPx - t.value) <= tol);
      if (fit.length > inliers.length) inliers = fit;
    }
  if (inliers.length < 2) return undefined;
  const n = inliers.length;
  const my = inliers.reduce((s, t) => s + t.yPx, 0) / n;
  const mv = inliers.reduce((s, t) => s + t.value, 0) / n;
  const b = inliers.reduce((s, t) => s + (t.yPx - my) * (t.value - mv), 0) / inliers.reduce((s, t) => s + (t.yPx - my) ** 2, 0);
  return { a: mv - b * my, b, ticks: inliers };
}

const round = (v: number, d = 4) => Number(v.toFixed(d));

export const axisTool: ToolSpec = {
  name: 'axis',
  usage: 'axis [x1,y1,x2,y2] (image=N)',
  summary: 'read the numeric tick labels in the box and fit value = a + b·y (y the pixel row, as in bars); box one axis only',
  async run(call, ctx) {
    const img = imageOf(call, ctx);
    const box = boxOf(call);
    const lines = await linesIn(img.png, box);
    const ticks = lines
      .map((l) => ({ value: tickNumber(l.text), yPx: (l.y0 + l.y1) / 2 }))
      .filter((t): t is { value: number; yPx: number } => t.value !== undefined);
    const fit = fitTicks(ticks);
    const listed = ticks.map((t) => `${t.value} at row ${Math.round(t.yPx)}px`).join(', ');
    if (!fit) return { text: `no axis in ${formatBox(box)}: ${ticks.length} tick number(s)${listed ? ` (${listed})` : ''}`, data: { box, ticks } };
    const text = `ticks: ${listed}\nfit: value = ${round(fit.a, 3)} ${fit.b < 0 ? '−' : '+'} ${round(Math.abs(fit.b), 5)} × row(px) from ${fit.ticks.length} ticks`;
    return { text, data: { box, ticks, fit: { a: round(fit.a, 6), b: round(fit.b, 8) } } };
  },
};

// --- legend ----------------------------------------------------------------------------------------------

export interface LegendEntry {
  color: string;
  label: string;
  swatch: Box;
}

const isSwatch = (b: Blob) => {
  const w = b.x1 - b.x0 + 1;
  const h = b.y1 - b.y0 + 1;
  return b.color !== 'black' && b.fill >= SOLID && w >= 8 && h >= 8 && w <= 60 && h <= 60 && w / h > 0.7 && w / h < 1.4;
};

/** Each swatch's label: the words on its row to its right, up to the next swatch on that row. */
export function pairLegend(swatches: Blob[], words: PxWord[]): { swatch: Blob; label: string }[] {
  return swatches.map((s) => {
    const h = s.y1 - s.y0 + 1;
    const sameRow = (y0: number, y1: number) => Math.min(y1, s.y1 + h / 2) - Math.max(y0, s.y0 - h / 2) > 0.4 * (y1 - y0);
    const next = swatches.filter((o) => o !== s && o.x0 > s.x1 && sameRow(o.y0, o.y1)).reduce((m, o) => Math.min(m, o.x0), Infinity);
    const mine = words.filter((w) => w.x0 >= s.x1 - 2 && w.x1 <= next + 2 && w.x0 - s.x1 < 12 * h && sameRow(w.y0, w.y1)).sort((a, b) => a.x0 - b.x0);
    // Words belong to the label while they follow one another closely.
    const label: PxWord[] = [];
    for (const w of mine) {
      const prevEnd = label.length ? (label[label.length - 1] as PxWord).x1 : s.x1;
      if (w.x0 - prevEnd > 3 * h) break;
      label.push(w);
    }
    return { swatch: s, label: label.map((w) => w.text).join(' ') };
  });
}

export const legendTool: ToolSpec = {
  name: 'legend',
  usage: 'legend [x1,y1,x2,y2] (image=N)',
  summary: 'colour swatches in the box and the label printed to the right of each (colour → label)',
  async run(call, ctx) {
    const { img, box, r, area } = await regionOf(call, ctx);
    const swatches = findBlobs(r, area).filter(isSwatch);
    const words = swatches.length ? await wordsIn(img.png, box) : [];
    const entries: LegendEntry[] = pairLegend(swatches, words)
      .filter((p) => p.label)
      .map((p) => ({ color: p.swatch.color, label: p.label, swatch: toBox(p.swatch, r.width, r.height) }));
    const text = entries.length ? entries.map((e) => `${e.color} → "${e.label}" ${formatBox(e.swatch)}`).join('\n') : `no legend in ${formatBox(box)}`;
    return { text, data: { box, entries } };
  },
};

// --- slices ----------------------------------------------------------------------------------------------

export interface SliceData {
  color: string;
  pixels: number;
  /** Percent of the included slices' pixels. */
  share: number;
}

/** Pie slices by colour: large coloured regions (legend swatches and text are too small to count). */
export function slicesOf(blobs: Blob[], exclude: ReadonlySet<string>): SliceData[] {
  const byColor = new Map<string, number>();
  for (const b of blobs) if (b.color !== 'black' && b.pixels >= 1500) byColor.set(b.color, (byColor.get(b.color) ?? 0) + b.pixels);
  const included = [...byColor].filter(([c]) => !exclude.has(c));
  const total = included.reduce((s, [, n]) => s + n, 0) || 1;
  return [...byColor]
    .map(([color, pixels]) => ({ color, pixels, share: exclude.has(color) ? 0 : round((100 * pixels) / total, 2) }))
    .sort((a, b) => b.pixels - a.pixels);
}

export const slicesTool: ToolSpec = {
  name: 'slices',
  usage: 'slices [x1,y1,x2,y2] (exclude=colour[,colour]) (image=N)',
  summary: 'pie slices in the box: colour, pixels and percent of the pie; exclude=<colour> leaves that slice out of the total',
  async run(call, ctx) {
    const { box, r, area } = await regionOf(call, ctx);
    const exclude = new Set((call.args.exclude ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
    const slices = slicesOf(findBlobs(r, area, { minPixels: 200 }), exclude);
    const text = slices.length
      ? slices.map((s) => `${s.color} ${s.pixels}px ${exclude.has(s.color) ? 'excluded' : `${s.share}%`}`).join('\n') + (exclude.size ? `\n(total without ${[...exclude].join(', ')})` : '')
      : `no pie slices in ${formatBox(box)}`;
    return { text, data: { box, exclude: [...exclude], slices } };
  },
};

export const CHARTS_TOOLS: ToolSpec[] = [barsTool, axisTool, legendTool, slicesTool];
