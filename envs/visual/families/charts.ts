// Charts (FigureQA / DVQA style): 1600×1200 bar and pie charts. Each template asks one kind of question and
// fixes one convention the chart itself leaves open (the learnable quirk):
//   unit-note   a bar's full value: four alike small notes name different unit multipliers; the bottom-left
//               footnote is the one that applies.
//   legend-key  the year a series peaks in grouped bars: three colour keys carry the series names; only the row
//               under the year labels is the chart's legend (bar order differs from legend order too).
//   dual-axis   the gap between two bars on a chart with a left and a right axis, neither starting at zero: the
//               bars are drawn against the right axis.
//   pie-share   a label's share of a survey pie: the grey "No answer" slice is left out of the total, the yellow
//               "Other" slice is kept.
import { esc, FONT, svgDoc, text } from '../render.ts';
import type { Family, Template, TemplateInstance } from '../task.ts';
import { type Box, call } from '../tools/grammar.ts';
import { type ColorName, COLORS } from '../tools/palette.ts';
import { choice, int, sample } from './random.ts';

export const W = 1600;
export const H = 1200;
/** The plot area every bar chart shares, in pixels. */
export const PLOT = { left: 170, right: 1300, top: 190, bottom: 930 };

/** A pixel rectangle as a 0–999 box. */
export function unitBox(x0: number, y0: number, x1: number, y1: number): Box {
  const c = (v: number, d: number) => Math.max(0, Math.min(999, Math.round((v / d) * 1000)));
  return [c(x0, W), c(y0, H), c(x1, W), c(y1, H)];
}

// Boxes the oracle (and the solver's generic search) use; they follow from the fixed layout above.
export const WHOLE: Box = [0, 0, 999, 999];
export const LABEL_STRIP = unitBox(0, PLOT.bottom + 4, W, PLOT.bottom + 62);
export const LEFT_AXIS = unitBox(0, PLOT.top - 30, PLOT.left - 4, PLOT.bottom + 30);
export const RIGHT_AXIS = unitBox(PLOT.right + 4, PLOT.top - 30, W, PLOT.bottom + 30);
export const NOTE_SPOTS = {
  topRight: unitBox(1150, 125, W, 165),
  rightMiddle: unitBox(1150, 580, W, 620),
  bottomLeft: unitBox(0, 1145, 450, 1195),
  bottomRight: unitBox(1150, 1145, W, 1195),
};
export const KEY_SPOTS = {
  right: unitBox(1320, 290, W, 450),
  top: unitBox(380, 124, 1320, 172),
  bottom: unitBox(380, 1014, 1320, 1066),
};

const BAR_COLORS: ColorName[] = ['blue', 'green', 'orange', 'purple', 'red', 'cyan', 'brown', 'pink'];
const TREES = [
  'Cedar',
  'Maple',
  'Birch',
  'Aspen',
  'Willow',
  'Spruce',
  'Hazel',
  'Larch',
  'Rowan',
  'Alder',
  'Poplar',
  'Walnut',
  'Cherry',
  'Holly',
];
const SERIES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Sigma', 'Kappa', 'Theta', 'Omega'];
const FRUITS = ['Apples', 'Pears', 'Plums', 'Grapes', 'Mangoes', 'Melons', 'Peaches', 'Cherries', 'Lemons', 'Kiwis'];
const MULTIPLIERS: [string, number][] = [
  ['hundreds', 100],
  ['thousands', 1_000],
  ['millions', 1_000_000],
  ['billions', 1_000_000_000],
];

// --- drawing -----------------------------------------------------------------------------------------------

const yOf = (v: number, lo: number, hi: number) => PLOT.bottom - ((v - lo) / (hi - lo)) * (PLOT.bottom - PLOT.top);

/** Title, subtitle, gridlines and the axis lines of the shared plot area. */
function frame(title: string, subtitle: string, ticks: number[], lo: number, hi: number): string {
  const grid = ticks
    .map(
      (t) =>
        `<rect x="${PLOT.left}" y="${Math.round(yOf(t, lo, hi))}" width="${PLOT.right - PLOT.left}" height="1" fill="#e6e6e6"/>`,
    )
    .join('');
  return (
    text(PLOT.left, 62, title, { size: 34, weight: 'bold' }) +
    text(PLOT.left, 104, subtitle, { size: 20, fill: '#333333' }) +
    grid +
    `<rect x="${PLOT.left - 2}" y="${PLOT.top}" width="2" height="${PLOT.bottom - PLOT.top + 2}" fill="#111111"/>` +
    `<rect x="${PLOT.left}" y="${PLOT.bottom}" width="${PLOT.right - PLOT.left}" height="2" fill="#111111"/>`
  );
}

/** Tick numbers beside the plot, their digits centred on the tick's row (baseline 0.365 em below it). */
function tickLabels(ticks: number[], lo: number, hi: number, side: 'left' | 'right'): string {
  return ticks
    .map((t) => {
      const y = Math.round(yOf(t, lo, hi) + 7.3);
      return side === 'left'
        ? text(PLOT.left - 14, y, t, { size: 20, anchor: 'end' })
        : text(PLOT.right + 14, y, t, { size: 20 });
    })
    .join('');
}

function bar(x: number, width: number, value: number, lo: number, hi: number, color: ColorName): string {
  const top = Math.round(yOf(value, lo, hi));
  return `<rect x="${Math.round(x)}" y="${top}" width="${width}" height="${PLOT.bottom - top}" fill="${COLORS[color]}"/>`;
}

const xLabel = (cx: number, s: string) => text(Math.round(cx), PLOT.bottom + 40, s, { size: 22, anchor: 'middle' });
const small = (x: number, y: number, s: string, anchor: 'start' | 'end') =>
  text(x, y, s, { size: 10, fill: '#222222', anchor });
const doc = (body: string) => svgDoc(W, H, `<g font-family="${esc(FONT)}">${body}</g>`);
const range = (lo: number, hi: number, step: number) =>
  Array.from({ length: Math.round((hi - lo) / step) + 1 }, (_, i) => lo + i * step);

/** A colour key: swatches with the label to their right, in a row or a column. */
function key(entries: { label: string; color: ColorName }[], x: number, y: number, layout: 'row' | 'column'): string {
  return entries
    .map((e, i) => {
      const ex = layout === 'row' ? x + i * 260 : x;
      const ey = layout === 'row' ? y : y + i * 44;
      return (
        `<rect x="${ex}" y="${ey - 17}" width="20" height="20" fill="${COLORS[e.color]}"/>` +
        text(ex + 30, ey, e.label, { size: 20 })
      );
    })
    .join('');
}

// --- templates ---------------------------------------------------------------------------------------------

const unitNote: Template = {
  id: 'unit-note',
  quirk: 'four alike small notes name different unit multipliers; the one that applies is the bottom-left footnote',
  generate(random): TemplateInstance {
    const names = sample(random, TREES, 6);
    const values = names.map(() => int(random, 200, 950) / 10);
    const target = int(random, 0, names.length - 1);
    const [real, ...decoys] = sample(random, MULTIPLIERS, 4) as [
      [string, number],
      [string, number],
      [string, number],
      [string, number],
    ];
    const color = choice(random, BAR_COLORS);
    const slot = (PLOT.right - PLOT.left) / names.length;
    const bars = names
      .map(
        (n, i) =>
          bar(PLOT.left + i * slot + slot * 0.2, Math.round(slot * 0.6), values[i] as number, 0, 100, color) +
          xLabel(PLOT.left + (i + 0.5) * slot, n),
      )
      .join('');
    const ticks = range(0, 100, 20);
    // The four notes are worded alike, so nothing but their place tells which one applies.
    const [w0, w1, w2, w3] = sample(random, ['Values in', 'Figures in', 'Amounts in', 'Numbers in'], 4);
    const notes =
      small(20, 1172, `${w0} ${real[0]}`, 'start') +
      small(1580, 150, `${w1} ${decoys[0][0]}`, 'end') +
      small(1580, 1172, `${w2} ${decoys[1][0]}`, 'end') +
      small(1580, 605, `${w3} ${decoys[2][0]}`, 'end');
    const svg = doc(
      frame('Timber output by species', 'Harvest per species, latest season', ticks, 0, 100) +
        tickLabels(ticks, 0, 100, 'left') +
        bars +
        notes,
    );
    const name = names[target] as string;
    return {
      svg,
      instruction: `What is the full value of the "${name}" bar in this bar chart once the chart's unit note is applied? Answer with a plain number.`,
      answer: { kind: 'number', value: Math.round((values[target] as number) * real[1]), tolerance: 0.02 },
      oracle: [
        call('bars', WHOLE),
        call('ocr', LABEL_STRIP),
        call('axis', LEFT_AXIS),
        call('ocr', NOTE_SPOTS.bottomLeft),
      ],
    };
  },
};

/** Values of three series over five years, each series peaking clearly in its own year. */
function peakedSeries(random: () => number): number[][] {
  const peaks = sample(random, [0, 1, 2, 3, 4], 3);
  return peaks.map((p) => {
    const top = int(random, 70, 95);
    return [0, 1, 2, 3, 4].map((y) => (y === p ? top : int(random, 15, top - 8)));
  });
}

const legendKey: Template = {
  id: 'legend-key',
  quirk:
    "the chart's own legend is the key row under the year labels; the keys at the top and on the right colour the same names differently",
  generate(random): TemplateInstance {
    const series = sample(random, SERIES, 3);
    const colors = sample(random, BAR_COLORS, 3);
    const values = peakedSeries(random);
    const start = int(random, 2012, 2019);
    const years = [0, 1, 2, 3, 4].map((i) => String(start + i));
    const target = int(random, 0, 2);
    // Bars stand in a shuffled order inside each group; the legend lists the series in another order.
    const barOrder = sample(random, [0, 1, 2], 3);
    const group = (PLOT.right - PLOT.left) / 5;
    const bw = 52;
    const bars = years
      .map((yr, g) => {
        const x0 = PLOT.left + g * group + (group - 3 * bw - 12) / 2;
        return (
          barOrder
            .map((s, k) => bar(x0 + k * (bw + 6), bw, values[s]?.[g] as number, 0, 100, colors[s] as ColorName))
            .join('') + xLabel(PLOT.left + (g + 0.5) * group, yr)
        );
      })
      .join('');
    const legendOrder = [1, 2, 0].map((k) => barOrder[k] as number);
    const real = legendOrder.map((s) => ({ label: series[s] as string, color: colors[s] as ColorName }));
    // Decoy keys: the same names under the two cyclic shifts of the colours, so the asked series gets each wrong colour once.
    const shifted = (d: number) =>
      legendOrder.map((s) => ({ label: series[s] as string, color: colors[(s + d) % 3] as ColorName }));
    const [topKey, rightKey] = random() < 0.5 ? [shifted(1), shifted(2)] : [shifted(2), shifted(1)];
    const ticks = range(0, 100, 20);
    const svg = doc(
      frame('Unit sales by product line', 'Thousand units per year', ticks, 0, 100) +
        tickLabels(ticks, 0, 100, 'left') +
        bars +
        key(real, 420, 1048, 'row') +
        key(topKey, 420, 156, 'row') +
        key(rightKey, 1340, 320, 'column'),
    );
    const peakYear = years[(values[target] as number[]).indexOf(Math.max(...(values[target] as number[])))] as string;
    return {
      svg,
      instruction: `In which year did the "${series[target]}" series reach its highest bar in this grouped bar chart?`,
      answer: { kind: 'text', value: peakYear },
      oracle: [call('bars', WHOLE), call('ocr', LABEL_STRIP), call('legend', KEY_SPOTS.bottom)],
    };
  },
};

/** An axis range of six steps that does not start at zero. */
function axisRange(random: () => number, steps: number[], starts: number[]): { lo: number; hi: number; step: number } {
  const step = choice(random, steps);
  const lo = choice(random, starts) * step;
  return { lo, hi: lo + 6 * step, step };
}

const dualAxis: Template = {
  id: 'dual-axis',
  quirk: 'the bars are drawn against the right-hand axis; the left axis belongs to the line',
  generate(random): TemplateInstance {
    const right = axisRange(random, [20, 25, 50], [2, 3, 4, 6]);
    let left = axisRange(random, [2, 5, 10], [2, 3, 4, 5]);
    // The two axes must disagree clearly about a gap, or the wrong one would still land within tolerance.
    while ((left.hi - left.lo) / (right.hi - right.lo) > 0.6) left = axisRange(random, [2, 5], [2, 3, 4, 5]);
    const names = sample(random, TREES, 6);
    const span = right.hi - right.lo;
    let values: number[];
    let a: number;
    let b: number;
    do {
      values = names.map(() => right.lo + Math.round((int(random, 150, 950) / 1000) * span * 10) / 10);
      [a, b] = sample(random, [0, 1, 2, 3, 4, 5], 2) as [number, number];
      if ((values[a] as number) < (values[b] as number)) [a, b] = [b, a];
    } while ((values[a] as number) - (values[b] as number) < 0.2 * span);
    const line = names.map(() => left.lo + (int(random, 100, 900) / 1000) * (left.hi - left.lo));
    const color = choice(random, ['blue', 'green', 'purple', 'brown'] as ColorName[]);
    const lineColor = choice(random, ['orange', 'red', 'pink'] as ColorName[]);
    const slot = (PLOT.right - PLOT.left) / names.length;
    const cx = (i: number) => PLOT.left + (i + 0.5) * slot;
    // The line is drawn first: bars cover it, so they stay whole blocks.
    const path = line
      .map((v, i) => `${i ? 'L' : 'M'}${cx(i).toFixed(1)} ${yOf(v, left.lo, left.hi).toFixed(1)}`)
      .join(' ');
    const lineSvg = `<path d="${path}" fill="none" stroke="${COLORS[lineColor]}" stroke-width="4"/>`;
    const bars = names
      .map(
        (n, i) =>
          bar(cx(i) - slot * 0.28, Math.round(slot * 0.56), values[i] as number, right.lo, right.hi, color) +
          xLabel(cx(i), n),
      )
      .join('');
    const lt = range(left.lo, left.hi, left.step);
    const rt = range(right.lo, right.hi, right.step);
    const svg = doc(
      frame('Volume and price by site', 'Volume (bars) and unit price (line)', rt, right.lo, right.hi) +
        tickLabels(lt, left.lo, left.hi, 'left') +
        tickLabels(rt, right.lo, right.hi, 'right') +
        lineSvg +
        bars,
    );
    const gap = Math.round(((values[a] as number) - (values[b] as number)) * 10) / 10;
    return {
      svg,
      instruction: `In this dual-axis chart, by how much does the "${names[a]}" bar exceed the "${names[b]}" bar? Answer with a number.`,
      answer: { kind: 'number', value: gap, absolute: 0.012 * span },
      oracle: [call('bars', WHOLE), call('ocr', LABEL_STRIP), call('axis', RIGHT_AXIS)],
    };
  },
};

/** Shares of five labels plus the "Other" and "No answer" slices (all summing to 1). */
function pieShares(random: () => number): { shares: number[]; other: number; none: number } {
  const none = int(random, 18, 28) / 100;
  const other = int(random, 12, 20) / 100;
  let raw: number[];
  do raw = [0, 1, 2, 3, 4].map(() => int(random, 8, 40));
  while (Math.max(...raw) / raw.reduce((s, v) => s + v, 0) < 0.3);
  const sum = raw.reduce((s, v) => s + v, 0);
  return { shares: raw.map((v) => (v / sum) * (1 - none - other)), other, none };
}

function slicePath(cx: number, cy: number, r: number, from: number, to: number, fill: string): string {
  const pt = (t: number) =>
    `${(cx + r * Math.sin(2 * Math.PI * t)).toFixed(2)} ${(cy - r * Math.cos(2 * Math.PI * t)).toFixed(2)}`;
  return `<path d="M${cx} ${cy} L${pt(from)} A${r} ${r} 0 ${to - from > 0.5 ? 1 : 0} 1 ${pt(to)} Z" fill="${fill}" stroke="#ffffff" stroke-width="2"/>`;
}

const PIE_COLORS: ColorName[] = ['blue', 'green', 'orange', 'purple', 'red', 'cyan', 'brown', 'pink'];

const pieShare: Template = {
  id: 'pie-share',
  quirk:
    'shares are reported among valid answers: the grey "No answer" slice is left out of the total, the yellow "Other" slice is kept',
  generate(random): TemplateInstance {
    const labels = sample(random, FRUITS, 5);
    const colors = sample(random, PIE_COLORS, 5);
    // The three plausible bases (whole pie; without "No answer"; without "No answer" and "Other") must give
    // answers at least 4 points apart for the asked label.
    let pie: ReturnType<typeof pieShares>;
    let pct: (s: number) => number[];
    let candidates: number[];
    do {
      pie = pieShares(random);
      const { none, other } = pie;
      pct = (s) => [100 * s, (100 * s) / (1 - none), (100 * s) / (1 - none - other)];
      candidates = pie.shares
        .map((_, i) => i)
        .filter((i) => {
          const p = pct(pie.shares[i] as number);
          return (p[1] as number) - (p[0] as number) >= 4 && (p[2] as number) - (p[1] as number) >= 4;
        });
    } while (!candidates.length);
    const { shares, other, none } = pie;
    const target = choice(random, candidates);
    const slices: { share: number; color: ColorName }[] = [
      ...shares.map((share, i) => ({ share, color: colors[i] as ColorName })),
      { share: other, color: 'yellow' },
      { share: none, color: 'gray' },
    ];
    let t = 0;
    const paths = sample(random, slices, slices.length)
      .map((sl) => {
        const p = slicePath(560, 640, 360, t, t + sl.share, COLORS[sl.color]);
        t += sl.share;
        return p;
      })
      .join('');
    const entries = [
      ...labels.map((l, i) => ({ label: l, color: colors[i] as ColorName })),
      { label: 'Other', color: 'yellow' as ColorName },
      { label: 'No answer', color: 'gray' as ColorName },
    ];
    const people = int(random, 300, 900);
    const svg = doc(
      text(120, 62, 'Which fruit do you buy most often?', { size: 34, weight: 'bold' }) +
        text(120, 104, `Survey of ${people} shoppers`, { size: 20, fill: '#333333' }) +
        paths +
        key(entries, 1080, 400, 'column'),
    );
    return {
      svg,
      instruction: `In this pie chart of survey responses, what percentage of the answers went to "${labels[target]}"? Answer with a whole percent.`,
      answer: { kind: 'number', value: Math.round(pct(shares[target] as number)[1] as number), absolute: 1.5 },
      oracle: [call('legend', WHOLE), call('slices', WHOLE, { exclude: 'gray' })],
    };
  },
};

export const charts: Family = {
  name: 'charts',
  description:
    "Charts: 1600×1200 bar and pie charts (FigureQA/DVQA style). Questions ask for a bar's full value after a " +
    'unit note ("Values in thousands"), the year a series of a grouped bar chart peaks, the gap between two bars ' +
    "of a dual-axis chart whose axes do not start at zero, or a label's percentage of a survey pie. Small notes " +
    'are legible only in a small OCR box; the bars, axis, legend and slices tools read bars, tick numbers (a fit ' +
    'from pixel row to value), colour keys and pie shares off the pixels. Each question type has one convention ' +
    'the chart leaves open (which note or colour key applies, which axis the bars use, what the share is of).',
  tools: ['bars', 'axis', 'legend', 'slices'],
  templates: [unitNote, legendKey, dualAxis, pieShare],
};
