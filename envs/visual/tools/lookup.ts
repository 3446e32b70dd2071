// Tools of the lookup family (local visual search, MMSearch-lite):
//   image_search [x1,y1,x2,y2] — the crop, trimmed of its background, against every catalogue logo: top 3 ids with
//     a similarity; a crop holding several separate marks matches poorly, and the tool lists the marks' boxes
//     (as a visual search engine points at the objects it sees).
//   visit <page-id> (field=NAME) — a catalogue page's title and fields (or the one field asked for).
import { formatBox, regionOf } from './common.ts';
import type { Box } from './grammar.ts';
import { COLOR_NAMES, COLORS } from './palette.ts';
import { colorDistance, parseHex, type PxBox, type Raster, raster, toBox } from './pixels.ts';
import { ToolError, type ToolSpec } from './types.ts';

/** Side of the descriptor grid: coarse enough to ignore resampling, fine enough to see the shape. */
const GRID = 20;
/** RGB distance at which colours count as clearly different (similarity factor e^-1). */
const COLOR_SCALE = 60;
/** Distance from the background for a pixel to count as ink. */
const INK = 48;
/** Similarity from which a hit counts as the same logo. */
export const MATCH_SIMILARITY = 0.8;

export interface SearchHit {
  id: string;
  similarity: number;
}

export interface ImageSearchData {
  box: Box;
  hits: SearchHit[];
  /** Separate logo-like marks in the crop (0–999 boxes); more than one means the crop is not a single logo. */
  marks: Box[];
  /** The top hit is a confident single-logo match. */
  matched: boolean;
}

export interface VisitData {
  id: string;
  title: string;
  fields: Record<string, string>;
  /** The field asked for with field=NAME, if any. */
  field?: { name: string; value: string };
}

/** Squared RGB distance between pixel i of the raster and a colour (no allocation: this runs per pixel). */
function dist2(data: Buffer, i: number, c: readonly number[]): number {
  const a = (data[i] as number) - (c[0] as number);
  const b = (data[i + 1] as number) - (c[1] as number);
  const d = (data[i + 2] as number) - (c[2] as number);
  return a * a + b * b + d * d;
}

/** The most common colour on the area's border (quantised): the backdrop around whatever the crop centres on. */
function borderColor(r: Raster, area: PxBox): [number, number, number] {
  const counts = new Map<number, { n: number; sum: [number, number, number] }>();
  const add = (x: number, y: number) => {
    const i = (y * r.width + x) * 3;
    const c: [number, number, number] = [r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number];
    const k = ((c[0] >> 4) << 8) | ((c[1] >> 4) << 4) | (c[2] >> 4);
    const e = counts.get(k) ?? { n: 0, sum: [0, 0, 0] };
    e.n++;
    for (let j = 0; j < 3; j++) e.sum[j] = (e.sum[j] as number) + (c[j] as number);
    counts.set(k, e);
  };
  const right = area.left + area.width - 1;
  const bottom = area.top + area.height - 1;
  for (let x = area.left; x <= right; x++) {
    add(x, area.top);
    add(x, bottom);
  }
  for (let y = area.top; y <= bottom; y++) {
    add(area.left, y);
    add(right, y);
  }
  let best = { n: 0, sum: [255, 255, 255] as [number, number, number] };
  for (const e of counts.values()) if (e.n > best.n) best = e;
  return [best.sum[0] / best.n, best.sum[1] / best.n, best.sum[2] / best.n];
}

/**
 * The area's ink mask (1 = far from the backdrop colour). Ink connected to the area's edge is clutter cut by the
 * box (a neighbouring board, a strip of the next shop) and is dropped, unless nothing else is left.
 */
function inkMask(r: Raster, area: PxBox, bg: readonly number[]): Uint8Array {
  const W = area.width;
  const H = area.height;
  const ink = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) ink[y * W + x] = dist2(r.data, ((area.top + y) * r.width + area.left + x) * 3, bg) > INK * INK ? 1 : 0;
  const clutter = new Uint8Array(W * H);
  const stack: number[] = [];
  const seed = (p: number) => {
    if (ink[p] && !clutter[p]) {
      clutter[p] = 1;
      stack.push(p);
    }
  };
  for (let x = 0; x < W; x++) {
    seed(x);
    seed((H - 1) * W + x);
  }
  for (let y = 0; y < H; y++) {
    seed(y * W);
    seed(y * W + W - 1);
  }
  while (stack.length) {
    const p = stack.pop() as number;
    const x = p % W;
    if (x > 0) seed(p - 1);
    if (x < W - 1) seed(p + 1);
    if (p >= W) seed(p - W);
    if (p < (H - 1) * W) seed(p + W);
  }
  let kept = 0;
  for (let p = 0; p < W * H; p++) if (ink[p] && !clutter[p]) kept++;
  if (kept) for (let p = 0; p < W * H; p++) if (clutter[p]) ink[p] = 0;
  return ink;
}

/** The mask's bounding box in the area's own coordinates, or undefined when empty. */
function maskBounds(mask: Uint8Array, W: number, H: number): PxBox | undefined {
  let x0 = W;
  let y0 = H;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      if (!mask[y * W + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  return x1 < 0 ? undefined : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** What a crop is compared by: the shape of its trimmed ink and the ink's colour. */
export interface Descriptor {
  /** The ink coverage of the ink's square window on a GRID×GRID grid, mean-centred and unit length. */
  shape: number[];
  /** Mean colour of the ink's core (pixels far from the background). */
  color: [number, number, number];
}

/**
 * The descriptor of the area's ink (pixels far from the colour around the area's border), or undefined when blank.
 * Coverage ignores colour and background, so a logo on a cream poster reads like the catalogue's logo on white.
 */
export function describe(r: Raster, area: PxBox): Descriptor | undefined {
  const bg = borderColor(r, area);
  const mask = inkMask(r, area, bg);
  const ink = maskBounds(mask, area.width, area.height);
  if (!ink) return undefined;
  const side = Math.max(ink.width, ink.height);
  const ox = ink.left - (side - ink.width) / 2;
  const oy = ink.top - (side - ink.height) / 2;
  const cover = new Float64Array(GRID * GRID);
  const counts = new Float64Array(GRID * GRID);
  const core = [0, 0, 0];
  let coreN = 0;
  for (let y = ink.top; y < ink.top + ink.height; y++)
    for (let x = ink.left; x < ink.left + ink.width; x++) {
      const cell = Math.min(GRID - 1, Math.floor(((y - oy) / side) * GRID)) * GRID + Math.min(GRID - 1, Math.floor(((x - ox) / side) * GRID));
      const i = ((area.top + y) * r.width + area.left + x) * 3;
      const isInk = mask[y * area.width + x] === 1;
      if (isInk) cover[cell] = (cover[cell] as number) + 1;
      counts[cell] = (counts[cell] as number) + 1;
      if (isInk && dist2(r.data, i, bg) > 4 * INK * INK) {
        for (let k = 0; k < 3; k++) core[k] = (core[k] as number) + (r.data[i + k] as number);
        coreN++;
      }
    }
  // Cells of the square window outside the ink box stay empty.
  const v = Array.from(cover, (n, j) => (counts[j] ? n / (counts[j] as number) : 0));
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const centred = v.map((x) => x - mean);
  const norm = Math.hypot(...centred);
  if (!norm || !coreN) return undefined;
  return { shape: centred.map((x) => x / norm), color: core.map((x) => x / coreN) as [number, number, number] };
}

/** Shape agreement (cosine) times colour agreement (Gaussian in RGB distance): 1 for the same logo. */
export function similarity(a: Descriptor, b: Descriptor): number {
  const shape = a.shape.reduce((s, x, i) => s + x * (b.shape[i] as number), 0);
  const color = Math.exp(-((colorDistance(a.color, b.color) / COLOR_SCALE) ** 2));
  return Math.max(0, shape) * color;
}

const catalogueCache = new WeakMap<Buffer, Promise<Descriptor | undefined>>();

async function catalogueDescriptor(png: Buffer): Promise<Descriptor | undefined> {
  let d = catalogueCache.get(png);
  if (!d) {
    d = raster(png).then((r) => describe(r, { left: 0, top: 0, width: r.width, height: r.height }));
    catalogueCache.set(png, d);
  }
  return d;
}

/** Gap (px) across which same-coloured pieces count as one mark (a logo of separate bars). */
const MARK_GAP = 20;

interface Piece {
  color: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const near = (a: Piece, b: Piece) => a.color === b.color && a.x0 <= b.x1 + MARK_GAP && b.x0 <= a.x1 + MARK_GAP && a.y0 <= b.y1 + MARK_GAP && b.y0 <= a.y1 + MARK_GAP;

/** Pieces merged while any two of one colour lie within MARK_GAP of each other. */
function mergePieces(pieces: Piece[]): Piece[] {
  const out = pieces.map((p) => ({ ...p }));
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++)
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i] as Piece;
        const b = out[j] as Piece;
        if (!near(a, b)) continue;
        out[i] = { color: a.color, x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
        out.splice(j, 1);
        merged = true;
      }
  }
  return out;
}

/** Logo colours a mark may have: the saturated palette colours (gray and black are decoration and print). */
const MARK_COLORS = COLOR_NAMES.filter((n) => n !== 'gray' && n !== 'black').map((n) => ({ name: n, rgb: parseHex(COLORS[n]) }));
/** The least channel spread (max − min) of a mark colour's pixels; the least saturated logo colour (brown) has 65. */
const MIN_SPREAD = 40;
/** How close (RGB distance) a pixel must be to a palette colour to belong to a mark. */
const MARK_TOLERANCE = 40;

/** Connected pieces of one palette colour (4-neighbour), as pixel boxes; pieces under `minPixels` are dropped. */
function colourPieces(r: Raster, area: PxBox, minPixels: number): Piece[] {
  const W = area.width;
  const H = area.height;
  const label = new Int8Array(W * H).fill(-1);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = ((area.top + y) * r.width + area.left + x) * 3;
      // Backdrops, print and greys are unsaturated: skip them before comparing with eight colours.
      const hi = Math.max(r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number);
      const lo = Math.min(r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number);
      if (hi - lo < MIN_SPREAD) continue;
      for (const [k, c] of MARK_COLORS.entries())
        if (dist2(r.data, i, c.rgb) <= MARK_TOLERANCE * MARK_TOLERANCE) {
          label[y * W + x] = k;
          break;
        }
    }
  const seen = new Uint8Array(W * H);
  const stack = new Int32Array(W * H);
  const out: Piece[] = [];
  for (let start = 0; start < W * H; start++) {
    const k = label[start] as number;
    if (k < 0 || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let n = 0;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    while (top) {
      const p = stack[--top] as number;
      const x = p % W;
      const y = (p - x) / W;
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const push = (q: number) => {
        if (label[q] === k && !seen[q]) {
          seen[q] = 1;
          stack[top++] = q;
        }
      };
      if (x > 0) push(p - 1);
      if (x < W - 1) push(p + 1);
      if (y > 0) push(p - W);
      if (y < H - 1) push(p + W);
    }
    if (n >= minPixels) out.push({ color: (MARK_COLORS[k] as { name: string }).name, x0: x0 + area.left, y0: y0 + area.top, x1: x1 + area.left, y1: y1 + area.top });
  }
  return out;
}

/** Logo-sized marks: regions of one saturated palette colour (pieces merged), roughly square, 40–260 px a side. */
export function findMarks(r: Raster, area: PxBox): PxBox[] {
  return mergePieces(colourPieces(r, area, 200))
    .map((m) => ({ left: m.x0, top: m.y0, width: m.x1 - m.x0 + 1, height: m.y1 - m.y0 + 1 }))
    .filter((m) => Math.min(m.width, m.height) >= 40 && Math.max(m.width, m.height) <= 260 && m.width / m.height > 0.6 && m.width / m.height < 1.67)
    .sort((a, b) => a.top - b.top || a.left - b.left);
}

/** The area grown by a small margin (clamped to the image): a box drawn tight around a logo still shows its backdrop. */
function withMargin(a: PxBox, r: Raster): PxBox {
  const m = Math.max(4, Math.round(0.06 * Math.max(a.width, a.height)));
  const left = Math.max(0, a.left - m);
  const top = Math.max(0, a.top - m);
  return { left, top, width: Math.min(r.width, a.left + a.width + m) - left, height: Math.min(r.height, a.top + a.height + m) - top };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const imageSearch: ToolSpec = {
  name: 'image_search',
  usage: 'image_search [x1,y1,x2,y2] (image=N)',
  summary: 'visual search of the crop (one logo) in the local logo catalogue: top 3 page ids with similarity; a crop with several marks matches poorly and the marks are listed',
  async run(call, ctx) {
    const region = await regionOf(call, ctx);
    const { box, r } = region;
    const area = withMargin(region.area, r);
    const marks = findMarks(r, area).map((m) => toBox({ x0: m.left, y0: m.top, x1: m.left + m.width - 1, y1: m.top + m.height - 1 }, r.width, r.height));
    const query = describe(r, area);
    if (!query) return { text: `the crop ${formatBox(box)} is blank`, data: { box, hits: [], marks, matched: false } satisfies ImageSearchData };
    const scored: SearchHit[] = [];
    for (const entry of ctx.world.catalogue) {
      const d = await catalogueDescriptor(entry.png);
      if (d) scored.push({ id: entry.id, similarity: round3(similarity(query, d)) });
    }
    const hits = scored.sort((a, b) => b.similarity - a.similarity).slice(0, 3);
    const matched = marks.length <= 1 && (hits[0]?.similarity ?? 0) >= MATCH_SIMILARITY;
    const lines = [
      matched ? `match: ${hits[0]?.id}` : 'no confident match',
      ...hits.map((h, i) => `${i + 1}. ${h.id} similarity ${h.similarity.toFixed(3)}`),
    ];
    if (marks.length > 1) lines.push(`the crop holds ${marks.length} separate marks: ${marks.map(formatBox).join(' ')}`);
    return { text: lines.join('\n'), data: { box, hits, marks, matched } satisfies ImageSearchData };
  },
};

export const visit: ToolSpec = {
  name: 'visit',
  usage: 'visit <page-id> (field=NAME)',
  summary: 'open a page of the local catalogue: its title and fields, or only the field named',
  async run(call, ctx) {
    const id = call.words[0] ?? call.args.id ?? call.args.page;
    if (!id) throw new ToolError('visit needs a page id, e.g. "visit <page-id>"');
    const page = ctx.world.pages.get(id.toLowerCase());
    if (!page) throw new ToolError(`no page "${id}" in the local catalogue`);
    const data: VisitData = { id: page.id, title: page.title, fields: page.fields };
    const asked = call.args.field;
    if (asked) {
      const name = Object.keys(page.fields).find((k) => k.toLowerCase() === asked.toLowerCase());
      if (!name) throw new ToolError(`page "${page.id}" has no field "${asked}"; fields: ${Object.keys(page.fields).join(', ')}`);
      data.field = { name, value: page.fields[name] as string };
      return { text: `${page.title} (${page.id}) — ${name}: ${data.field.value}`, data };
    }
    const text = [`${page.title} (${page.id})`, ...Object.entries(page.fields).map(([k, v]) => `${k}: ${v}`)].join('\n');
    return { text, data };
  },
};

export const LOOKUP_TOOLS: ToolSpec[] = [imageSearch, visit];
