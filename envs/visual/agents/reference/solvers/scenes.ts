// Scenes: detect the shapes with the objects tool, filtered as the question says. What the question's words mean
// here ("rubber", "left of", "nearest", "same shape as", which faint zone is the loading zone) is the benchmark's
// convention, so the generic procedure guesses one plausible reading (seeded by the task) and skips readings a
// failed sibling used. Every reading is an argument of the objects call, so a replayed call carries it.
import { call, type Box, type ToolCall } from '../../../tools/grammar.ts';
import { NEAREST_BY, type ObjectsData, RELATE_BY } from '../../../tools/scenes.ts';
import { dataOf, type Executed, pick, type SolveContext, type Solver } from '../solver.ts';

type Question =
  | { kind: 'material'; material: string; shape?: string }
  | { kind: 'relate'; direction: string; reference: string }
  | { kind: 'zone'; color: string }
  | { kind: 'nearest'; reference: string }
  | { kind: 'same-shape'; reference: string };

const SHAPE = '(circles|squares|triangles|objects)';

function questionOf(instruction: string): Question | undefined {
  const s = instruction.toLowerCase();
  let m = s.match(new RegExp(`how many (rubber|metal) ${SHAPE}\\b`));
  if (m) return { kind: 'material', material: m[1] as string, ...(m[2] !== 'objects' ? { shape: m[2] as string } : {}) };
  m = s.match(/how many objects are (left of|right of|above|below) the ([a-z ]+?)\s*\?/);
  if (m) return { kind: 'relate', direction: (m[1] as string).replace(' ', '-'), reference: m[2] as string };
  m = s.match(/how many ([a-z]+) objects are (?:inside|in) the loading zone/);
  if (m) return { kind: 'zone', color: m[1] as string };
  m = s.match(/what colou?r is the object nearest to the ([a-z ]+?)\s*\?/);
  if (m) return { kind: 'nearest', reference: m[1] as string };
  m = s.match(/how many objects have the same shape as the ([a-z ]+?) object\b/);
  if (m) return { kind: 'same-shape', reference: m[1] as string };
  return undefined;
}

const objectsOf = (e: Executed) => dataOf<ObjectsData>(e, 'objects');

/** The `objects` calls failed siblings made, parsed. */
function avoidedCalls(ctx: SolveContext): ToolCall[] {
  return ctx.avoid.flat().filter((c) => c.name === 'objects');
}

/** A seeded choice among the readings no failed sibling used (all of them when every one was used). */
function guess(options: readonly string[], used: (string | undefined)[], random: () => number): string {
  const fresh = options.filter((o) => !used.includes(o));
  return pick(fresh.length ? fresh : options, random);
}

function overlap(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const area = (x: Box) => (x[2] - x[0]) * (x[3] - x[1]);
  return (w * h) / Math.max(1, area(a) + area(b) - w * h);
}

async function countWith(ctx: SolveContext, args: Record<string, string>, thought: string, box?: Box): Promise<string | undefined> {
  const e = await ctx.exec(call('objects', box, args), thought);
  const d = e ? objectsOf(e) : undefined;
  return d ? String(d.count) : undefined;
}

export const scenesSolver: Solver = {
  family: 'scenes',
  match: (instruction) => (questionOf(instruction) ? 3 : 0),

  derive(instruction, executed) {
    const q = questionOf(instruction);
    const last = [...executed].reverse().find((e) => e.call?.name === 'objects');
    const d = last ? objectsOf(last) : undefined;
    if (!q || !d) return undefined;
    if (q.kind === 'nearest') return d.objects[0]?.color;
    return String(d.count);
  },

  async generic(ctx) {
    const q = questionOf(ctx.instruction);
    if (!q) return undefined;
    const avoided = avoidedCalls(ctx);
    switch (q.kind) {
      case 'material': {
        // Rubber vs metal in a flat drawing: filled or outlined; which is which is not said.
        const style = guess(['outline', 'filled'], avoided.map((c) => c.args.style), ctx.random);
        return countWith(ctx, { ...(q.shape ? { shape: q.shape } : {}), style }, `guessing that ${q.material} objects are drawn ${style}`);
      }
      case 'relate': {
        const by = guess(RELATE_BY, avoided.map((c) => c.args.by), ctx.random);
        return countWith(ctx, { [q.direction]: q.reference, by }, `"${q.direction}" read by ${by}`);
      }
      case 'same-shape': {
        const self = guess(['exclude', 'include'], avoided.map((c) => c.args.self), ctx.random);
        return countWith(ctx, { 'same-shape': q.reference, self }, `the reference object itself: ${self}`);
      }
      case 'nearest': {
        const by = guess(NEAREST_BY, avoided.map((c) => c.args.by), ctx.random);
        const e = await ctx.exec(call('objects', undefined, { nearest: q.reference, by }), `"nearest" measured by ${by}`);
        return e ? objectsOf(e)?.objects[0]?.color : undefined;
      }
      case 'zone': {
        // The scene shows several faint zones and does not say which is the loading zone.
        const scan = await ctx.exec(call('objects'), 'find the faint zones');
        const zones = (scan ? objectsOf(scan)?.zones : undefined) ?? [];
        if (!zones.length) return countWith(ctx, { color: q.color }, 'no zone found: count the whole scene');
        const tried = avoided.map((c) => c.box).filter((b): b is Box => !!b);
        const fresh = zones.filter((z) => !tried.some((t) => overlap(z, t) > 0.5));
        const zone = pick(fresh.length ? fresh : zones, ctx.random);
        return countWith(ctx, { color: q.color }, 'count in one of the faint zones', zone);
      }
    }
  },
};
