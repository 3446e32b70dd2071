// Named colours: what the renderers paint with and what the colour tools name. General knowledge (a colour
// chart), shared by generator and perception, not ground truth about any task.
import { colorDistance, parseHex } from './pixels.ts';

export const COLORS = {
  red: '#d62728',
  blue: '#1f5fbf',
  green: '#2ca02c',
  orange: '#ff7f0e',
  purple: '#8e44ad',
  yellow: '#e6c619',
  cyan: '#17becf',
  pink: '#e377c2',
  brown: '#8c564b',
  gray: '#7f7f7f',
  black: '#111111',
} as const;
export type ColorName = keyof typeof COLORS;
export const COLOR_NAMES = Object.keys(COLORS) as ColorName[];

const rgb = COLOR_NAMES.map((n) => [n, parseHex(COLORS[n])] as const);

/** The nearest named colour and its distance. */
export function nameColor(c: readonly number[]): { name: ColorName; distance: number } {
  let best: { name: ColorName; distance: number } = { name: 'black', distance: Infinity };
  for (const [name, v] of rgb) {
    const d = colorDistance(c, v);
    if (d < best.distance) best = { name, distance: d };
  }
  return best;
}
