// Scene model of the scenes family: shapes with colour, size and style placed without overlap on an 800×600
// canvas, their geometry (boxes, centres, gaps between the drawn shapes) and their SVG. The generator decides
// answers from this model; the objects tool reads the same facts back from pixels, so every relation an answer
// depends on keeps a margin of a few pixels.
import { svgDoc } from '../../render.ts';
import { COLORS } from '../../tools/palette.ts';
import { choice, int } from '../random.ts';

const W = 800;
const H = 600;
export type Shape = 'circle' | 'square' | 'triangle';
export const SHAPES: Shape[] = ['circle', 'square', 'triangle'];
/** Well separated palette colours (yellow stays far enough from white for the blob detector). */
export const SCENE_COLORS = ['red', 'blue', 'green', 'orange', 'purple', 'yellow'] as const;
export type SceneColor = (typeof SCENE_COLORS)[number];
const SIDE = { small: 40, large: 70 } as const;
const STROKE = 4;

export interface Obj {
  shape: Shape;
  color: SceneColor;
  size: 'small' | 'large';
  style: 'filled' | 'outline';
  cx: number;
  cy: number;
}

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Outlines are stroked on the nominal path, so they reach half a stroke further. */
const pad = (o: Obj) => (o.style === 'outline' ? STROKE / 2 : 0);

export function bbox(o: Obj): Rect {
  const e = SIDE[o.size] / 2 + pad(o);
  return { x0: o.cx - e, y0: o.cy - e, x1: o.cx + e, y1: o.cy + e };
}

function rectGap(a: Rect, b: Rect): number {
  return Math.hypot(Math.max(0, a.x0 - b.x1, b.x0 - a.x1), Math.max(0, a.y0 - b.y1, b.y0 - a.y1));
}

export const boxGap = (a: Obj, b: Obj) => rectGap(bbox(a), bbox(b));
export const centreDistance = (a: Obj, b: Obj) => Math.hypot(a.cx - b.cx, a.cy - b.cy);

/** The nominal outline as a polygon (circles as 64-gons). */
function polygon(o: Obj): [number, number][] {
  const h = SIDE[o.size] / 2;
  if (o.shape === 'square') return [[o.cx - h, o.cy - h], [o.cx + h, o.cy - h], [o.cx + h, o.cy + h], [o.cx - h, o.cy + h]];
  if (o.shape === 'triangle') return [[o.cx, o.cy - h], [o.cx + h, o.cy + h], [o.cx - h, o.cy + h]];
  return Array.from({ length: 64 }, (_, k) => [o.cx + h * Math.cos((k * Math.PI) / 32), o.cy + h * Math.sin((k * Math.PI) / 32)] as [number, number]);
}

function pointSegment([px, py]: [number, number], [ax, ay]: [number, number], [bx, by]: [number, number]): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Gap between the drawn shapes (disjoint convex outlines: the closest vertex–edge pair either way). */
export function shapeGap(a: Obj, b: Obj): number {
  const pa = polygon(a);
  const pb = polygon(b);
  let best = Infinity;
  for (const [p, q] of [[pa, pb], [pb, pa]] as const)
    for (const v of p) for (let k = 0; k < q.length; k++) best = Math.min(best, pointSegment(v, q[k] as [number, number], q[(k + 1) % q.length] as [number, number]));
  return best - pad(a) - pad(b);
}

export function randomObj(random: () => number, over: Partial<Obj> = {}): Obj {
  return {
    shape: choice(random, SHAPES),
    color: choice(random, SCENE_COLORS),
    size: random() < 0.5 ? 'small' : 'large',
    style: random() < 0.5 ? 'filled' : 'outline',
    cx: 0,
    cy: 0,
    ...over,
  };
}

const inRect = (b: Rect, r: Rect, margin: number) => b.x0 >= r.x0 + margin && b.y0 >= r.y0 + margin && b.x1 <= r.x1 - margin && b.y1 <= r.y1 - margin;

export const CANVAS: Rect = { x0: 0, y0: 0, x1: W, y1: H };

/**
 * Puts `o` at a random spot of `area` (its box `margin` inside) at least `gap` px from every placed object and
 * `keepOut` px from the `avoid` rectangles; false when 300 tries find no room.
 */
export function place(random: () => number, o: Obj, placed: Obj[], area: Rect, opts: { gap?: number; margin?: number; avoid?: Rect[]; keepOut?: number } = {}): boolean {
  const gap = opts.gap ?? 14;
  const margin = opts.margin ?? 16;
  for (let t = 0; t < 300; t++) {
    o.cx = int(random, Math.ceil(area.x0), Math.floor(area.x1));
    o.cy = int(random, Math.ceil(area.y0), Math.floor(area.y1));
    const b = bbox(o);
    if (!inRect(b, area, margin) || !inRect(b, CANVAS, 16)) continue;
    if (placed.some((p) => boxGap(p, o) < gap)) continue;
    if (opts.avoid?.some((r) => rectGap(b, r) < (opts.keepOut ?? 10) || (b.x1 > r.x0 && b.x0 < r.x1 && b.y1 > r.y0 && b.y0 < r.y1))) continue;
    return true;
  }
  return false;
}

/** `n` random objects on the canvas (fewer if the canvas fills up). */
export function scatter(random: () => number, n: number, placed: Obj[] = [], area: Rect = CANVAS, opts: Parameters<typeof place>[4] = {}): Obj[] {
  const out = [...placed];
  while (out.length < n + placed.length) {
    const o = randomObj(random);
    if (!place(random, o, out, area, opts)) break;
    out.push(o);
  }
  return out;
}

function shapeSvg(o: Obj): string {
  const h = SIDE[o.size] / 2;
  const c = COLORS[o.color];
  const paint = o.style === 'filled' ? `fill="${c}"` : `fill="none" stroke="${c}" stroke-width="${STROKE}" stroke-linejoin="round"`;
  if (o.shape === 'circle') return `<circle cx="${o.cx}" cy="${o.cy}" r="${h}" ${paint}/>`;
  if (o.shape === 'square') return `<rect x="${o.cx - h}" y="${o.cy - h}" width="${2 * h}" height="${2 * h}" ${paint}/>`;
  return `<polygon points="${o.cx},${o.cy - h} ${o.cx + h},${o.cy + h} ${o.cx - h},${o.cy + h}" ${paint}/>`;
}

/** Faint zone tint: visible to the eye, below the objects' foreground threshold. */
const ZONE_TINT = '#e4ebf3';

export function sceneSvg(objs: Obj[], zones: Rect[] = []): string {
  const z = zones.map((r) => `<rect x="${r.x0}" y="${r.y0}" width="${r.x1 - r.x0}" height="${r.y1 - r.y0}" fill="${ZONE_TINT}"/>`).join('');
  return svgDoc(W, H, z + objs.map(shapeSvg).join(''));
}

/** A pixel rectangle in the 0–999 coordinates of the canvas. */
export function toUnits(r: Rect): [number, number, number, number] {
  return [Math.round((r.x0 / W) * 1000), Math.round((r.y0 / H) * 1000), Math.round((r.x1 / W) * 1000), Math.round((r.y1 / H) * 1000)];
}

/** Exactly one object has these attributes. */
export const unique = (objs: Obj[], test: (o: Obj) => boolean) => objs.filter(test).length === 1;
