// 2D CLEVR-style scenes (Sort-of-CLEVR): 800×600 canvases of 8–14 non-overlapping shapes — circle, square or
// triangle; one of six palette colours; small or large; filled ("metal") or drawn as an outline ("rubber"). Each
// template asks a counting, relation or attribute question whose reading is a convention of this benchmark (what
// "rubber" looks like, what "left of" or "nearest" measures, whether the reference object counts, where the
// loading zone is). Every scene is generated so the plausible readings give different answers; the convention
// is the template's learnable quirk and never written in the image.
import type { Family, Template, TemplateInstance } from '../task.ts';
import { call } from '../tools/grammar.ts';
import { choice, int, sample } from './random.ts';
import {
  bbox,
  boxGap,
  CANVAS,
  centreDistance,
  type Obj,
  place,
  randomObj,
  type Rect,
  scatter,
  SCENE_COLORS,
  type SceneColor,
  sceneSvg,
  SHAPES,
  shapeGap,
  toUnits,
  unique,
} from './scenes/scene.ts';

/** Draws scenes until `attempt` accepts one (the conditions that make the readings disagree are not rare). */
function until(random: () => number, attempt: (random: () => number) => TemplateInstance | undefined): TemplateInstance {
  for (let t = 0; t < 20000; t++) {
    const r = attempt(random);
    if (r) return r;
  }
  throw new Error('scenes: no scene satisfied the template after 20000 attempts');
}

const count = (n: number) => ({ kind: 'number' as const, value: n, absolute: 0 });

/** Recolours objects that would make the reference description ambiguous. */
function makeUnique(random: () => number, objs: Obj[], ref: Obj, same: (a: Obj, b: Obj) => boolean): void {
  for (const o of objs) while (o !== ref && same(o, ref)) o.color = choice(random, SCENE_COLORS);
}

// --- material: "rubber" means outlined ----------------------------------------------------------------------

const material: Template = {
  id: 'material',
  quirk: 'rubber objects are the ones drawn as outlines (metal ones are filled): count outlined shapes',
  generate: (random) =>
    until(random, (rnd) => {
      const shape = choice(rnd, SHAPES);
      const objs = scatter(rnd, int(rnd, 9, 12));
      const rubber = objs.filter((o) => o.shape === shape && o.style === 'outline').length;
      const metal = objs.filter((o) => o.shape === shape && o.style === 'filled').length;
      if (rubber < 1 || rubber === metal) return undefined;
      return {
        svg: sceneSvg(objs),
        instruction: `How many rubber ${shape}s are in the scene?`,
        answer: count(rubber),
        oracle: [call('objects', undefined, { shape: `${shape}s`, style: 'outline' })],
      };
    }),
};

// --- left of: compared by centre x -------------------------------------------------------------------------

/** Left-of counts under the three readings, or undefined when some object is within 5 px of a threshold. */
function leftCounts(objs: Obj[], ref: Obj): { centre: number; edge: number; part: number } | undefined {
  const r = bbox(ref);
  const out = { centre: 0, edge: 0, part: 0 };
  for (const o of objs) {
    if (o === ref) continue;
    const b = bbox(o);
    if (Math.abs(o.cx - ref.cx) < 5 || Math.abs(b.x1 - r.x0) < 5 || Math.abs(b.x0 - r.x0) < 5) return undefined;
    if (o.cx < ref.cx) out.centre++;
    if (b.x1 < r.x0) out.edge++;
    if (b.x0 < r.x0) out.part++;
  }
  return out;
}

const leftOf: Template = {
  id: 'left-of',
  quirk: '"left of" compares centres (an object counts when its centre is left of the reference centre), not whole boxes or left edges',
  generate: (random) =>
    until(random, (rnd) => {
      const ref = randomObj(rnd);
      if (!place(rnd, ref, [], { x0: 200, y0: 60, x1: 600, y1: 540 })) return undefined;
      // Two objects share the reference's column, where the readings part ways.
      const column: Rect = { x0: ref.cx - 70, y0: 0, x1: ref.cx + 70, y1: 600 };
      let objs = scatter(rnd, 2, [ref], column, { margin: -60 });
      objs = scatter(rnd, int(rnd, 7, 10), objs);
      makeUnique(rnd, objs, ref, (a, b) => a.color === b.color && a.shape === b.shape);
      const c = leftCounts(objs, ref);
      if (!c || c.centre === c.edge || c.centre === c.part || c.edge === c.part) return undefined;
      return {
        svg: sceneSvg(objs),
        instruction: `How many objects are left of the ${ref.color} ${ref.shape}?`,
        answer: count(c.centre),
        oracle: [call('objects', undefined, { 'left-of': `${ref.color} ${ref.shape}`, by: 'centre' })],
      };
    }),
};

// --- loading zone: the faint zone at the bottom left ---------------------------------------------------------

const ZONES: Rect[] = [
  { x0: 24, y0: 24, x1: 300, y1: 250 },
  { x0: 500, y0: 24, x1: 776, y1: 250 },
  { x0: 24, y0: 350, x1: 300, y1: 576 },
  { x0: 500, y0: 350, x1: 776, y1: 576 },
];
const LOADING_ZONE = 2;

const zone: Template = {
  id: 'zone',
  quirk: 'the loading zone is the faint zone at the bottom left (four identical faint zones are drawn)',
  generate: (random) => {
    // Drawn once, so rejected scenes do not skew the answers towards the easiest count.
    const color: SceneColor = choice(random, SCENE_COLORS);
    const target = int(random, 1, 3);
    return until(random, (rnd) => {
      let objs: Obj[] = [];
      const inZone = ZONES.map((z, k) => {
        const before = objs.length;
        // The loading zone gets `target` objects of the asked colour; the others get random ones.
        if (k === LOADING_ZONE)
          for (let n = 0; n < target; n++) {
            const o = randomObj(rnd, { color });
            if (place(rnd, o, objs, z, { margin: 10 })) objs.push(o);
          }
        const fillers = objs.length;
        objs = scatter(rnd, k === LOADING_ZONE ? int(rnd, 0, 3 - target) : int(rnd, 2, 3), objs, z, { margin: 10 });
        // The asked colour is thinned out elsewhere, or a target of 1 would rarely differ from every zone.
        for (const o of objs.slice(fillers)) if (o.color === color && (k === LOADING_ZONE || rnd() < 0.6)) o.color = choice(rnd, SCENE_COLORS.filter((c) => c !== color));
        return objs.slice(before);
      });
      objs = scatter(rnd, int(rnd, 1, 2), objs, CANVAS, { avoid: ZONES, keepOut: 12 });
      const counts = inZone.map((os) => os.filter((o) => o.color === color).length);
      if (counts[LOADING_ZONE] !== target || counts.some((n, k) => k !== LOADING_ZONE && n === target)) return undefined;
      return {
        svg: sceneSvg(objs, ZONES),
        instruction: `How many ${color} objects are inside the loading zone?`,
        answer: count(target),
        oracle: [call('objects', toUnits(ZONES[LOADING_ZONE] as Rect), { color })],
      };
    });
  },
};

// --- nearest: by the gap between the drawn shapes ------------------------------------------------------------

/** The closest other object under `d` when it wins by `margin` px, else undefined. */
function nearestBy(objs: Obj[], ref: Obj, d: (a: Obj, b: Obj) => number, margin: number): Obj | undefined {
  const ranked = objs.filter((o) => o !== ref).map((o) => ({ o, d: d(o, ref) })).sort((a, b) => a.d - b.d);
  const [first, second] = ranked;
  return first && (!second || second.d - first.d >= margin) ? first.o : undefined;
}

const nearest: Template = {
  id: 'nearest',
  quirk: '"nearest" is measured by the gap between the drawn shapes themselves, not between centres or bounding boxes',
  generate: (random) =>
    until(random, (rnd) => {
      const ref = randomObj(rnd);
      if (!place(rnd, ref, [], { x0: 150, y0: 120, x1: 650, y1: 480 })) return undefined;
      // Geometry first: a few neighbours close to the reference, where centre, box and shape distances pick
      // three different objects; colours come after, so the three winners can get three colours.
      const near = scatter(rnd, int(rnd, 4, 5), [ref], { x0: ref.cx - 110, y0: ref.cy - 110, x1: ref.cx + 110, y1: ref.cy + 110 }, { margin: -60, gap: 8 });
      const byGap = nearestBy(near, ref, shapeGap, 5);
      const byCentre = nearestBy(near, ref, centreDistance, 5);
      const byBox = nearestBy(near, ref, boxGap, 5);
      if (!byGap || !byCentre || !byBox || new Set([byGap, byCentre, byBox]).size < 3) return undefined;
      const palette = sample(rnd, SCENE_COLORS.filter((c) => c !== ref.color), 3);
      [byGap, byCentre, byBox].forEach((o, k) => (o.color = palette[k] as SceneColor));
      // The rest keep clear of the reference by more than any winner's distance, so they win under no reading.
      const clear = Math.max(shapeGap(byGap, ref), centreDistance(byCentre, ref), boxGap(byBox, ref)) + 10;
      const objs = scatter(rnd, int(rnd, 4, 7), near).filter((o) => near.includes(o) || boxGap(o, ref) >= clear);
      makeUnique(rnd, objs, ref, (a, b) => a.color === b.color && a.shape === b.shape);
      return {
        svg: sceneSvg(objs),
        instruction: `What colour is the object nearest to the ${ref.color} ${ref.shape}?`,
        answer: { kind: 'text', value: byGap.color },
        oracle: [call('objects', undefined, { nearest: `${ref.color} ${ref.shape}`, by: 'gap' })],
      };
    }),
};

// --- same shape: the reference object does not count --------------------------------------------------------

const sameShape: Template = {
  id: 'same-shape',
  quirk: '"the same shape as X" counts the other objects only (X itself is not counted)',
  generate: (random) =>
    until(random, (rnd) => {
      const objs = scatter(rnd, int(rnd, 9, 12));
      const color: SceneColor = choice(rnd, SCENE_COLORS);
      const isRef = (o: Obj) => o.size === 'large' && o.color === color;
      if (!unique(objs, isRef)) return undefined;
      const ref = objs.find(isRef) as Obj;
      const others = objs.filter((o) => o !== ref && o.shape === ref.shape).length;
      if (others < 1) return undefined;
      return {
        svg: sceneSvg(objs),
        instruction: `How many objects have the same shape as the large ${color} object?`,
        answer: count(others),
        oracle: [call('objects', undefined, { 'same-shape': `large ${color}`, self: 'exclude' })],
      };
    }),
};

export const scenes: Family = {
  name: 'scenes',
  description:
    'Scenes: 2D CLEVR-style pictures (800×600) of 8–14 non-overlapping shapes — circle, square or triangle; red, ' +
    'blue, green, orange, purple or yellow; small or large; filled or drawn as an outline — sometimes with faint ' +
    'tinted zones. Questions count objects (by material: rubber or metal, by relation to a reference object, in ' +
    'the loading zone, by shared shape) or ask the colour of the object nearest to another. Words such as ' +
    '"rubber", "left of", "nearest", "same shape as" and "loading zone" follow fixed conventions of this benchmark ' +
    'that are not written in the image. The objects tool detects the shapes and applies filters. Answer with a ' +
    'number or a colour word.',
  tools: ['objects'],
  templates: [material, leftOf, zone, nearest, sameShape],
};
