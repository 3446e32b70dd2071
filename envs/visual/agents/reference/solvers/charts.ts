// Charts: read bars, tick numbers, colour keys and pie slices off the pixels and answer the question type the
// instruction names. The generic procedure knows the family's layout (plot area, where small notes and colour
// keys usually sit) but not each question type's convention, so it guesses: which small note gives the unit,
// which colour key is the legend, which axis the bars use, whether the "No answer" slice counts. A failed
// sibling's choice is skipped. Every choice is a call's box or argument, so derive() can answer from a replay.
import type { AxisFit, BarData, LegendEntry, SliceData } from '../../../tools/charts.ts';
import { type Box, call, type ToolCall } from '../../../tools/grammar.ts';
import type { OcrLineData } from '../../../tools/ocr-tool.ts';
import { dataOf, type Executed, type SolveContext, shuffled, type Solver } from '../solver.ts';

type Kind = 'unit' | 'peak' | 'gap' | 'share';

function kindOf(instruction: string): Kind | undefined {
  if (/bar chart/i.test(instruction) && /unit note/i.test(instruction)) return 'unit';
  if (/grouped bar chart/i.test(instruction) && /highest/i.test(instruction)) return 'peak';
  if (/dual-axis chart/i.test(instruction) && /exceed/i.test(instruction)) return 'gap';
  if (/pie chart/i.test(instruction) && /percent/i.test(instruction)) return 'share';
  return undefined;
}

const quoted = (instruction: string) => [...instruction.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);

// --- the family's layout (general knowledge of how these charts are drawn) ---------------------------------

const WHOLE: Box = [0, 0, 999, 999];
const AXES: Record<'left' | 'right', Box> = { left: [0, 133, 104, 800], right: [815, 133, 999, 800] };
/** Where small notes usually sit: header right, right margin, footnote left, footnote right. */
const NOTE_SPOTS: Box[] = [[719, 104, 999, 138], [719, 483, 999, 517], [0, 954, 281, 996], [719, 954, 999, 996]];
/** Where colour keys usually sit: right margin, under the title, under the category labels. */
const KEY_SPOTS: Box[] = [[825, 242, 999, 375], [238, 103, 825, 143], [238, 845, 825, 888]];

// --- reading observations -----------------------------------------------------------------------------------

const all = <T>(executed: Executed[], name: string): T[] => executed.map((e) => dataOf<T>(e, name)).filter((d): d is T => d !== undefined);
const last = <T>(executed: Executed[], name: string): T | undefined => all<T>(executed, name).pop();

const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      (d[i] as number[])[j] = Math.min((d[i - 1]?.[j] as number) + 1, (d[i]?.[j - 1] as number) + 1, (d[i - 1]?.[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]?.[b.length] as number;
}

/** OCR text is the name, allowing a slip or two in longer names. */
const sameName = (read: string, name: string) => editDistance(letters(read), letters(name)) <= (letters(name).length >= 6 ? 2 : 1);

/** Horizontal centre (0–999) of the OCR word that reads `name`. */
function labelCenter(executed: Executed[], name: string): number | undefined {
  for (const d of all<{ lines?: OcrLineData[] }>(executed, 'ocr'))
    for (const l of d.lines ?? []) {
      if (l.unreadable) continue;
      const whole = sameName(l.text, name) ? l.box : l.words.find((w) => sameName(w.text, name))?.box;
      if (whole) return (whole[0] + whole[2]) / 2;
    }
  return undefined;
}

const barsIn = (executed: Executed[]) => last<{ bars: BarData[] }>(executed, 'bars')?.bars ?? [];
const nearestBar = (bars: BarData[], x: number) => [...bars].sort((p, q) => Math.abs(p.center - x) - Math.abs(q.center - x))[0];

const MULTIPLIERS: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

/** The multiplier of the last unit note read ("in thousands"), or 1 when none was read. */
function multiplier(executed: Executed[]): number {
  let m = 1;
  for (const d of all<{ lines?: OcrLineData[] }>(executed, 'ocr'))
    for (const l of d.lines ?? []) {
      const u = l.text.match(/\bin\s+(hundred|thousand|million|billion)s?\b/i);
      if (u) m = MULTIPLIERS[(u[1] as string).toLowerCase()] as number;
    }
  return m;
}

function legendColor(executed: Executed[], name: string): string | undefined {
  const d = last<{ entries: LegendEntry[] }>(executed, 'legend');
  return d?.entries.find((e) => sameName(e.label, name))?.color;
}

const valueAt = (fit: AxisFit, row: number) => fit.a + fit.b * row;

// --- the answer from observations ---------------------------------------------------------------------------

function deriveUnit(instruction: string, executed: Executed[]): string | undefined {
  const [name] = quoted(instruction);
  const fit = last<{ fit?: AxisFit }>(executed, 'axis')?.fit;
  const x = name ? labelCenter(executed, name) : undefined;
  const b = x === undefined ? undefined : nearestBar(barsIn(executed), x);
  if (!fit || !b) return undefined;
  return String(Math.round(valueAt(fit, b.topPx) * multiplier(executed)));
}

function derivePeak(instruction: string, executed: Executed[]): string | undefined {
  const [name] = quoted(instruction);
  const color = name ? legendColor(executed, name) : undefined;
  const mine = barsIn(executed).filter((b) => b.color === color);
  if (!mine.length) return undefined;
  const top = mine.reduce((m, b) => (b.topPx < m.topPx ? b : m));
  // Group labels: the OCR words under the bars, the one nearest the tallest bar.
  const labels: { text: string; x: number }[] = [];
  for (const d of all<{ lines?: OcrLineData[] }>(executed, 'ocr'))
    for (const l of d.lines ?? []) for (const w of l.words) if (/^\d{4}$/.test(w.text)) labels.push({ text: w.text, x: (w.box[0] + w.box[2]) / 2 });
  return [...labels].sort((p, q) => Math.abs(p.x - top.center) - Math.abs(q.x - top.center))[0]?.text;
}

function deriveGap(instruction: string, executed: Executed[]): string | undefined {
  const [first, second] = quoted(instruction);
  const fit = last<{ fit?: AxisFit }>(executed, 'axis')?.fit;
  const bars = barsIn(executed);
  const xa = first ? labelCenter(executed, first) : undefined;
  const xb = second ? labelCenter(executed, second) : undefined;
  if (!fit || xa === undefined || xb === undefined) return undefined;
  const a = nearestBar(bars, xa);
  const b = nearestBar(bars, xb);
  if (!a || !b) return undefined;
  return (valueAt(fit, a.topPx) - valueAt(fit, b.topPx)).toFixed(1);
}

function deriveShare(instruction: string, executed: Executed[]): string | undefined {
  const [name] = quoted(instruction);
  const color = name ? legendColor(executed, name) : undefined;
  const slice = last<{ slices: SliceData[] }>(executed, 'slices')?.slices.find((s) => s.color === color);
  return slice ? String(Math.round(slice.share)) : undefined;
}

const DERIVE: Record<Kind, (instruction: string, executed: Executed[]) => string | undefined> = { unit: deriveUnit, peak: derivePeak, gap: deriveGap, share: deriveShare };

// --- the generic procedure ----------------------------------------------------------------------------------

/** What a call chose, for the question type: the note or key read, the axis used, the slice left out. */
function choiceOf(kind: Kind, c: ToolCall): string | undefined {
  if (kind === 'unit' && c.name === 'ocr' && c.box && NOTE_SPOTS.some((s) => s.join() === c.box?.join())) return c.box.join();
  if (kind === 'peak' && c.name === 'legend') return c.box?.join();
  if (kind === 'gap' && c.name === 'axis') return c.box?.join();
  if (kind === 'share' && c.name === 'slices') return c.args.exclude ?? 'none';
  return undefined;
}

/** The options in a seeded order, those failed siblings settled on last (each sibling's final choice). */
function options<T>(ctx: SolveContext, kind: Kind, items: T[], key: (t: T) => string): T[] {
  const avoided = new Set<string>();
  for (const acts of ctx.avoid) {
    const chosen = acts.map((a) => choiceOf(kind, a)).filter((k): k is string => k !== undefined);
    if (chosen.length) avoided.add(chosen[chosen.length - 1] as string);
  }
  const order = shuffled(items, ctx.random);
  return [...order.filter((t) => !avoided.has(key(t))), ...order.filter((t) => avoided.has(key(t)))];
}

/** Bars, then the category labels in the strip under their baseline. */
async function barsAndLabels(ctx: SolveContext): Promise<void> {
  const bars = await ctx.exec(call('bars', WHOLE), 'find the bars and their baseline');
  const list = (bars?.result?.data as { bars?: BarData[]; imageHeight?: number } | undefined) ?? {};
  const bottom = Math.max(0, ...(list.bars ?? []).map((b) => b.box[3]));
  await ctx.exec(call('ocr', [0, Math.min(990, bottom + 3), 999, Math.min(999, bottom + 52)]), 'read the category labels under the bars');
}

async function generic(ctx: SolveContext, kind: Kind): Promise<string | undefined> {
  const derive = () => DERIVE[kind](ctx.instruction, ctx.executed);
  if (kind === 'unit') {
    await barsAndLabels(ctx);
    await ctx.exec(call('axis', AXES.left), 'calibrate the value axis from its tick numbers');
    for (const spot of options(ctx, kind, NOTE_SPOTS, (b) => b.join())) {
      const e = await ctx.exec(call('ocr', spot), 'look for the unit note in small print');
      if (!e) break;
      if (multiplier([e]) !== 1) break;
    }
    return derive();
  }
  if (kind === 'peak') {
    await barsAndLabels(ctx);
    for (const spot of options(ctx, kind, KEY_SPOTS, (b) => b.join())) {
      if (!(await ctx.exec(call('legend', spot), 'look for the colour key of the series'))) break;
      const [name] = quoted(ctx.instruction);
      if (name && legendColor(ctx.executed, name)) break;
    }
    return derive();
  }
  if (kind === 'gap') {
    await barsAndLabels(ctx);
    const [side] = options(ctx, kind, ['left', 'right'] as const, (s) => AXES[s].join());
    await ctx.exec(call('axis', AXES[side ?? 'left']), `calibrate the ${side} axis (which one the bars use is not marked)`);
    return derive();
  }
  await ctx.exec(call('legend', WHOLE), 'map the legend colours to labels');
  // The plausible bases of a share: the whole pie, without "No answer", without "No answer" and "Other".
  const noAnswer = legendColor(ctx.executed, 'No answer');
  const other = legendColor(ctx.executed, 'Other');
  const bases = [[], [noAnswer], [noAnswer, other]].map((cs) => cs.filter((c): c is string => !!c).join(','));
  const [exclude] = options(ctx, kind, [...new Set(bases)], (s) => s || 'none');
  await ctx.exec(call('slices', WHOLE, exclude ? { exclude } : {}), exclude ? `shares without ${exclude} (a guess at the base)` : 'shares of the whole pie (a guess at the base)');
  return derive();
}

export const chartsSolver: Solver = {
  family: 'charts',
  match: (instruction) => (kindOf(instruction) ? 3 : 0),
  derive(instruction, executed) {
    const kind = kindOf(instruction);
    return kind ? DERIVE[kind](instruction, executed) : undefined;
  },
  async generic(ctx) {
    const kind = kindOf(ctx.instruction);
    return kind ? generic(ctx, kind) : undefined;
  },
};
