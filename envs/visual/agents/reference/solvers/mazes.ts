// Mazes: parse the maze with `grid`, then ask the maze interpreter (`path` or `follow`) the question. The
// interpreter needs one convention the question leaves open — how a length is counted, which way the walker
// faces at the start, whether a barred door can be used — and the generic procedure guesses it, skipping the
// values failed siblings used. A replayed sibling's call carries its convention, so derive only reads the result.
import { call } from '../../../tools/grammar.ts';
import type { FollowData, GridData, PathData } from '../../../tools/mazes.ts';
import { COLOR_NAMES } from '../../../tools/palette.ts';
import { type Executed, pick, type SolveContext, type Solver } from '../solver.ts';

type Question = 'length' | 'turns' | 'door' | 'follow';

/** What the question asks, from its wording. */
function questionOf(instruction: string): Question | undefined {
  if (!/\bmaze\b/i.test(instruction)) return undefined;
  if (/\bhand\b.*\bwall\b/i.test(instruction)) return 'follow';
  if (/\bdoor\b/i.test(instruction)) return 'door';
  if (/\bturns?\b/i.test(instruction)) return 'turns';
  if (/\bhow long\b|\blength\b|\bhow many (?:steps|moves|cells)\b/i.test(instruction)) return 'length';
  return undefined;
}

/** The tool that answers each question and the convention argument it needs, with the plausible values. */
const PLAN: Record<Question, { tool: 'path' | 'follow'; key: string; options: string[] }> = {
  length: { tool: 'path', key: 'count', options: ['moves', 'cells', 'inner'] },
  turns: { tool: 'path', key: 'heading', options: ['first', 'north'] },
  door: { tool: 'path', key: 'locks', options: ['ignore', 'respect'] },
  follow: { tool: 'follow', key: 'heading', options: ['north', 'east', 'south', 'west'] },
};

/** Colour words of the instruction in order: the first names where the walk starts, the second where it ends. */
function colorsIn(instruction: string): string[] {
  const found = [...instruction.toLowerCase().matchAll(/\b[a-z]+\b/g)].map((m) => m[0]).filter((w) => (COLOR_NAMES as string[]).includes(w));
  return [...new Set(found)];
}

const handOf = (instruction: string) => (/\bleft hand\b/i.test(instruction) ? 'left' : 'right');

/** Convention values the failed siblings' interpreter calls used. */
function avoidedValues(ctx: SolveContext, tool: string, key: string): Set<string> {
  const out = new Set<string>();
  for (const acts of ctx.avoid)
    for (const c of acts) {
      const v = c.name === tool ? c.args[key] : undefined;
      if (v) out.add(v.toLowerCase());
    }
  return out;
}

function answerFrom(q: Question, e: Executed): string | undefined {
  if (!e.result || e.call?.name !== PLAN[q].tool) return undefined;
  if (q === 'follow') {
    const d = e.result.data as FollowData;
    return d.moves === undefined ? undefined : String(d.moves);
  }
  const d = e.result.data as PathData;
  const v = q === 'door' ? d.nearestDoor : q === 'turns' ? (d.to === 'door' ? undefined : d.turns) : d.to === 'door' ? undefined : d.length;
  return v === undefined ? undefined : String(v);
}

export const mazesSolver: Solver = {
  family: 'mazes',
  match: (instruction) => (questionOf(instruction) ? 3 : 0),

  derive(instruction, executed) {
    const q = questionOf(instruction);
    if (!q) return undefined;
    for (let i = executed.length - 1; i >= 0; i--) {
      const v = answerFrom(q, executed[i] as Executed);
      if (v !== undefined) return v;
    }
    return undefined;
  },

  async generic(ctx) {
    const q = questionOf(ctx.instruction);
    if (!q) return undefined;
    const seen = await ctx.exec(call('grid'), 'read the maze: walls, markers and doors');
    const markers = ((seen?.result?.data as GridData | undefined)?.markers ?? []).map((m) => m.color);
    const named = colorsIn(ctx.instruction).filter((c) => markers.includes(c));
    const from = named[0] ?? markers[0] ?? 'green';
    const to = named[1] ?? markers.find((m) => m !== from) ?? 'red';
    const plan = PLAN[q];
    const avoided = avoidedValues(ctx, plan.tool, plan.key);
    const left = plan.options.filter((o) => !avoided.has(o));
    const value = pick(left.length ? left : plan.options, ctx.random);
    const thought = `the question leaves ${plan.key} open; guessing ${plan.key}=${value}${avoided.size ? ` (failed siblings used ${[...avoided].join(', ')})` : ''}`;
    const line =
      q === 'follow'
        ? call('follow', undefined, { from, to, hand: handOf(ctx.instruction), heading: value })
        : call('path', undefined, { from, to: q === 'door' ? 'door' : to, [plan.key]: value });
    const e = await ctx.exec(line, thought);
    return e ? answerFrom(q, e) : undefined;
  },
};
