// objects [box] key=value…: the shapes of a 2D scene read from pixels (colour blobs → colour, bounding box,
// shape from how much of the box the solid region fills, filled or outline from how much of the solid region is
// painted, size from the box), then filtered by the call's arguments. Conventions (what "left of" or "nearest"
// means, whether the reference object counts) are arguments, so a call records the reading it used.
import { findBlobs } from './blobs.ts';
import { maskComponents } from './components.ts';
import { formatBox, imageOf } from './common.ts';
import type { Box } from './grammar.ts';
import { COLOR_NAMES, nameColor } from './palette.ts';
import { type Raster, raster, toBox, toPixels } from './pixels.ts';
import { type ToolContext, ToolError, type ToolSpec } from './types.ts';

export type SceneShape = 'circle' | 'square' | 'triangle';

export interface SceneObject {
  color: string;
  shape: SceneShape;
  size: 'small' | 'large';
  style: 'filled' | 'outline';
  /** 0–999 box in the image. */
  box: Box;
  /** Pixel box (inclusive) and centre. */
  px: { x0: number; y0: number; x1: number; y1: number };
  cx: number;
  cy: number;
  /** Pixels on the object's outer boundary, for gap distances. */
  rim: [number, number][];
}

/** Objects whose longer side is at least this many pixels are large (the scenes draw 40 and 70 px shapes). */
const LARGE_MIN_PX = 56;
/** Distance from white below which a pixel is background; faint zone tints lie between FAINT_MIN and this. */
const FOREGROUND = 60;
const FAINT_MIN = 10;
const MIN_OBJECT_PX = 150;
/** Zones are far larger than the tinted interior of an outlined shape drawn inside one. */
const MIN_ZONE_PX = 12000;
const WHITE = [255, 255, 255] as const;

// --- detection -----------------------------------------------------------------------------------------------

/** Squared distance of pixel `p` from white (inline arithmetic: this runs for every pixel of the scene). */
function whiteDistance2(r: Raster, p: number): number {
  const a = 255 - (r.data[p * 3] as number);
  const b = 255 - (r.data[p * 3 + 1] as number);
  const c = 255 - (r.data[p * 3 + 2] as number);
  return a * a + b * b + c * c;
}

const isForeground = (r: Raster, x: number, y: number) => whiteDistance2(r, y * r.width + x) > FOREGROUND * FOREGROUND;

/**
 * Shape and style from the object's pixel box: the solid region is the box minus the background reachable from
 * the box's border (so an outline's hollow interior counts as solid). solid/box ≈ 1 square, 0.785 circle,
 * 0.5 triangle; painted/solid ≈ 1 when filled, well below when only the outline is drawn.
 */
function shapeOf(
  r: Raster,
  b: { x0: number; y0: number; x1: number; y1: number },
): Pick<SceneObject, 'shape' | 'style' | 'rim'> {
  const w = b.x1 - b.x0 + 1;
  const h = b.y1 - b.y0 + 1;
  const fg = new Uint8Array(w * h);
  let painted = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (isForeground(r, b.x0 + x, b.y0 + y)) {
        fg[y * w + x] = 1;
        painted++;
      }
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  const seed = (p: number) => {
    if (!fg[p] && !outside[p]) {
      outside[p] = 1;
      stack.push(p);
    }
  };
  for (let x = 0; x < w; x++) {
    seed(x);
    seed((h - 1) * w + x);
  }
  for (let y = 0; y < h; y++) {
    seed(y * w);
    seed(y * w + w - 1);
  }
  let exterior = 0;
  while (stack.length) {
    const p = stack.pop() as number;
    exterior++;
    const x = p % w;
    if (x > 0) seed(p - 1);
    if (x < w - 1) seed(p + 1);
    if (p >= w) seed(p - w);
    if (p < w * (h - 1)) seed(p + w);
  }
  const solid = w * h - exterior;
  const ratio = solid / (w * h);
  const shape: SceneShape = ratio >= 0.9 ? 'square' : ratio >= 0.66 ? 'circle' : 'triangle';
  const rim: [number, number][] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (outside[y * w + x]) continue;
      const edge =
        x === 0 ||
        y === 0 ||
        x === w - 1 ||
        y === h - 1 ||
        outside[y * w + x - 1] ||
        outside[y * w + x + 1] ||
        outside[(y - 1) * w + x] ||
        outside[(y + 1) * w + x];
      if (edge) rim.push([b.x0 + x, b.y0 + y]);
    }
  return { shape, style: painted / Math.max(1, solid) >= 0.8 ? 'filled' : 'outline', rim };
}

/** Large faintly tinted rectangles (zones) as pixel boxes. */
function faintZones(r: Raster): { x0: number; y0: number; x1: number; y1: number }[] {
  const W = r.width;
  const H = r.height;
  const faint = new Uint8Array(W * H);
  for (let p = 0; p < W * H; p++) {
    const d2 = whiteDistance2(r, p);
    faint[p] = d2 > FAINT_MIN * FAINT_MIN && d2 <= FOREGROUND * FOREGROUND ? 1 : 0;
  }
  const zones = maskComponents(faint, W, H).filter((c) => c.n >= MIN_ZONE_PX);
  return zones.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

interface SceneReading {
  objects: SceneObject[];
  zones: Box[];
}

const readings = new WeakMap<Buffer, Promise<SceneReading>>();

function readScene(png: Buffer): Promise<SceneReading> {
  let p = readings.get(png);
  if (!p) {
    p = raster(png).then((r) => {
      const all = toPixels([0, 0, 999, 999], r.width, r.height);
      const objects = findBlobs(r, all, { background: WHITE, foreground: FOREGROUND, minPixels: MIN_OBJECT_PX })
        .filter((b) => nameColor(b.rgb).distance < 40)
        .map((b): SceneObject => {
          const px = { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
          return {
            color: b.color,
            ...shapeOf(r, px),
            size: Math.max(b.x1 - b.x0, b.y1 - b.y0) + 1 >= LARGE_MIN_PX ? 'large' : 'small',
            box: toBox({ x0: b.x0, y0: b.y0, x1: b.x1 + 1, y1: b.y1 + 1 }, r.width, r.height),
            px,
            cx: (b.x0 + b.x1) / 2,
            cy: (b.y0 + b.y1) / 2,
          };
        })
        .sort((a, b) => a.cx - b.cx || a.cy - b.cy);
      const zones = faintZones(r)
        .filter((z) => !objects.some((o) => z.x0 >= o.px.x0 && z.x1 <= o.px.x1 && z.y0 >= o.px.y0 && z.y1 <= o.px.y1))
        .map((z) => toBox({ x0: z.x0, y0: z.y0, x1: z.x1 + 1, y1: z.y1 + 1 }, r.width, r.height));
      return { objects, zones };
    });
    readings.set(png, p);
  }
  return p;
}

// --- descriptions and relations ------------------------------------------------------------------------------

const COLOR_WORDS: ReadonlySet<string> = new Set(COLOR_NAMES);
const SHAPE_WORDS: Record<string, SceneShape> = {
  circle: 'circle',
  circles: 'circle',
  square: 'square',
  squares: 'square',
  triangle: 'triangle',
  triangles: 'triangle',
};

/** Attribute words ("large red square", "outline circle") → a predicate; unknown words are refused. */
function describe(words: string): (o: SceneObject) => boolean {
  const tests: ((o: SceneObject) => boolean)[] = [];
  for (const w of words
    .toLowerCase()
    .split(/[\s,_-]+/)
    .filter(Boolean)) {
    if (w === 'object' || w === 'objects' || w === 'the' || w === 'shape') continue;
    const shape = SHAPE_WORDS[w];
    if (shape) tests.push((o) => o.shape === shape);
    else if (w === 'small' || w === 'large') tests.push((o) => o.size === w);
    else if (w === 'filled' || w === 'outline' || w === 'outlined')
      tests.push((o) => o.style === (w === 'filled' ? 'filled' : 'outline'));
    else if (COLOR_WORDS.has(w)) tests.push((o) => o.color === w);
    else throw new ToolError(`unknown attribute "${w}" (colours, circle/square/triangle, small/large, filled/outline)`);
  }
  return (o) => tests.every((t) => t(o));
}

function referenceOf(objects: SceneObject[], desc: string): SceneObject {
  const found = objects.filter(describe(desc));
  if (found.length !== 1)
    throw new ToolError(
      `"${desc}" matches ${found.length} objects; describe exactly one (${found.map(label).join('; ') || 'none'})`,
    );
  return found[0] as SceneObject;
}

type Direction = 'left-of' | 'right-of' | 'above' | 'below';
const DIRECTIONS: Direction[] = ['left-of', 'right-of', 'above', 'below'];
export const RELATE_BY = ['centre', 'edge', 'part'] as const;
export const NEAREST_BY = ['centre', 'box', 'gap'] as const;

/**
 * "o is <dir> ref" under a reading: centre — o's centre beyond ref's centre; edge — o entirely beyond ref's near
 * edge; part — some of o reaches beyond ref's near edge. Written for left-of; the other directions mirror it.
 */
function related(o: SceneObject, ref: SceneObject, dir: Direction, by: string): boolean {
  const flip = dir === 'right-of' || dir === 'below';
  const vertical = dir === 'above' || dir === 'below';
  const lo = (s: SceneObject) => (vertical ? (flip ? -s.px.y1 : s.px.y0) : flip ? -s.px.x1 : s.px.x0);
  const hi = (s: SceneObject) => (vertical ? (flip ? -s.px.y0 : s.px.y1) : flip ? -s.px.x0 : s.px.x1);
  const mid = (s: SceneObject) => (vertical ? (flip ? -s.cy : s.cy) : flip ? -s.cx : s.cx);
  if (by === 'centre') return mid(o) < mid(ref);
  if (by === 'edge') return hi(o) < lo(ref);
  return lo(o) < lo(ref);
}

function boxGap(a: SceneObject, b: SceneObject): number {
  const dx = Math.max(0, a.px.x0 - b.px.x1, b.px.x0 - a.px.x1);
  const dy = Math.max(0, a.px.y0 - b.px.y1, b.px.y0 - a.px.y1);
  return Math.hypot(dx, dy);
}

function rimGap(a: SceneObject, b: SceneObject): number {
  let best = Infinity;
  for (const [ax, ay] of a.rim) for (const [bx, by] of b.rim) best = Math.min(best, (ax - bx) ** 2 + (ay - by) ** 2);
  return Math.sqrt(best);
}

function distance(a: SceneObject, b: SceneObject, by: string): number {
  if (by === 'centre') return Math.hypot(a.cx - b.cx, a.cy - b.cy);
  return by === 'box' ? boxGap(a, b) : rimGap(a, b);
}

function label(o: SceneObject): string {
  return `${o.color} ${o.size} ${o.style} ${o.shape} ${formatBox(o.box)}`;
}

function oneOf(value: string | undefined, allowed: readonly string[], what: string): string {
  if (!value || !allowed.includes(value)) throw new ToolError(`${what} needs by=${allowed.join('|')}`);
  return value;
}

function inside(o: SceneObject, box: Box, r: { width: number; height: number }): boolean {
  const x = (o.cx / r.width) * 1000;
  const y = (o.cy / r.height) * 1000;
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3];
}

export interface ObjectsData {
  count: number;
  objects: Omit<SceneObject, 'rim' | 'px'>[];
  zones: Box[];
  detected: number;
}

async function runObjects(call: Parameters<ToolSpec['run']>[0], ctx: ToolContext) {
  const img = imageOf(call, ctx);
  const scene = await readScene(img.png);
  let objs = scene.objects;
  const a = call.args;
  if (call.box) objs = objs.filter((o) => inside(o, call.box as Box, img));
  const attrs = [a.color, a.shape, a.size, a.style].filter((v): v is string => !!v).join(' ');
  if (attrs) objs = objs.filter(describe(attrs));
  for (const dir of DIRECTIONS) {
    if (!a[dir]) continue;
    const ref = referenceOf(scene.objects, a[dir] as string);
    const by = oneOf(a.by, RELATE_BY, dir);
    objs = objs.filter((o) => o !== ref && related(o, ref, dir, by));
  }
  if (a['same-shape']) {
    const ref = referenceOf(scene.objects, a['same-shape']);
    const self = a.self;
    if (self !== 'include' && self !== 'exclude')
      throw new ToolError('same-shape needs self=include|exclude (whether the reference object counts)');
    objs = objs.filter((o) => o.shape === ref.shape && (self === 'include' || o !== ref));
  }
  if (a.nearest) {
    const ref = referenceOf(scene.objects, a.nearest);
    const by = oneOf(a.by, NEAREST_BY, 'nearest');
    const ranked = objs
      .filter((o) => o !== ref)
      .map((o) => ({ o, d: distance(o, ref, by) }))
      .sort((x, y) => x.d - y.d);
    objs = ranked.slice(0, 1).map((x) => x.o);
  }
  const shown = objs.map(({ rim: _rim, px: _px, ...rest }) => rest);
  const data: ObjectsData = { count: objs.length, objects: shown, zones: scene.zones, detected: scene.objects.length };
  const lines = [
    `${objs.length} object(s) match (${scene.objects.length} detected):`,
    ...objs.map((o) => `  ${label(o)}`),
    `count: ${objs.length}`,
  ];
  if (scene.zones.length) lines.push(`faint zones: ${scene.zones.map(formatBox).join(' ')}`);
  return { text: lines.join('\n'), data };
}

export const objectsTool: ToolSpec = {
  name: 'objects',
  usage:
    'objects [x1,y1,x2,y2] color= shape= size=small|large style=filled|outline left-of|right-of|above|below="<ref>" by=centre|edge|part nearest="<ref>" by=centre|box|gap same-shape="<ref>" self=include|exclude',
  summary:
    'detect the shapes of a scene (colour, size, filled or outline, circle/square/triangle, box) and faint zones; every argument is an optional filter ("<ref>" describes one object, e.g. "green square"); returns the list and the count',
  run: runObjects,
};

export const SCENES_TOOLS: ToolSpec[] = [objectsTool];
