// A maze read off the pixels: the outer frame, the wall thickness and cell grid, open and closed sides sampled at
// each cell edge's midpoint, coloured markers inside, coloured door labels outside, and a text map of it all.
import { findBlobs } from './blobs.ts';
import { type Box, formatBox } from './grammar.ts';
import { BIT, type Cell, type Dir, type Door, type MazeGraph, OPPOSITE, STEP } from './maze-graph.ts';
import { type PxBox, type Raster, raster, toBox, toPixels } from './pixels.ts';
import { ToolError } from './types.ts';

export interface Marker {
  color: string;
  cell: Cell;
  box: Box;
}

export interface ParsedMaze extends MazeGraph {
  /** The outer frame in 0–999 coordinates. */
  frame: Box;
  cellPx: number;
  markers: Marker[];
  doors: Door[];
}

const isDark = (r: Raster, x: number, y: number) => {
  const i = (y * r.width + x) * 3;
  return Math.max(r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number) < 90;
};

/** A neutral mid-grey pixel (the bar across a barred door). */
const isGrey = (r: Raster, x: number, y: number) => {
  const i = (y * r.width + x) * 3;
  const v = [r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number];
  return Math.max(...v) - Math.min(...v) < 24 && (v[0] as number) > 90 && (v[0] as number) < 180;
};

/** Bounding box of the dark (wall) pixels: the maze's outer frame. */
function darkFrame(r: Raster, area: PxBox): { x0: number; y0: number; x1: number; y1: number } | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = area.top; y < area.top + area.height; y++)
    for (let x = area.left; x < area.left + area.width; x++)
      if (isDark(r, x, y)) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 - x0 > 20 && y1 - y0 > 20 ? { x0, y0, x1, y1 } : undefined;
}

/** Wall thickness: the median dark run across the frame's top edge. */
function wallThickness(r: Raster, f: { x0: number; y0: number; x1: number; y1: number }): number {
  const runs: number[] = [];
  for (let k = 1; k < 20; k++) {
    const x = Math.round(f.x0 + ((f.x1 - f.x0) * k) / 20);
    let n = 0;
    while (f.y0 + n <= f.y1 && isDark(r, x, f.y0 + n)) n++;
    if (n > 0) runs.push(n);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] ?? 4;
}

/**
 * Centres of the short dark runs that scan lines across the frame cross (walls standing across the scan
 * direction); `horizontal` scans rows of pixels and returns x positions.
 */
function wallCrossings(r: Raster, f: { x0: number; y0: number; x1: number; y1: number }, t: number, horizontal: boolean): number[] {
  const out: number[] = [];
  const [a0, a1, b0, b1] = horizontal ? [f.y0, f.y1, f.x0, f.x1] : [f.x0, f.x1, f.y0, f.y1];
  for (let a = a0 + t; a <= a1 - t; a += 3) {
    let run = -1;
    for (let b = b0; b <= b1 + 1; b++) {
      const dark = b <= b1 && (horizontal ? isDark(r, b, a) : isDark(r, a, b));
      if (dark && run < 0) run = b;
      if (!dark && run >= 0) {
        if (b - run <= 2 * t + 2) out.push((run + b - 1) / 2);
        run = -1;
      }
    }
  }
  return out;
}

/**
 * How many cells span [lo, hi] (wall centre lines) along one axis: the fewest whose grid lines carry nearly
 * every wall crossing (a multiple of the true count fits too, a divisor misses most walls).
 */
function cellCount(crossings: number[], lo: number, hi: number, thickness: number): number {
  if (!crossings.length) return 0;
  const tolerance = thickness / 4 + 1.5;
  for (let n = 2; n <= 40; n++) {
    const cell = (hi - lo) / n;
    if (cell < 2.5 * thickness) break;
    const fits = crossings.filter((x) => {
      const k = Math.round((x - lo) / cell);
      return Math.abs(lo + k * cell - x) <= tolerance;
    }).length;
    if (fits >= 0.97 * crossings.length) return n;
  }
  return 0;
}

/** Share of dark (or grey) pixels along the stretch of a cell edge around its midpoint. */
function edgeShare(r: Raster, test: (r: Raster, x: number, y: number) => boolean, x: number, y: number, along: 'x' | 'y', half: number): number {
  let hit = 0;
  let n = 0;
  for (let t = -half; t <= half; t++)
    for (let s = -1; s <= 1; s++) {
      const px = Math.round(along === 'x' ? x + t : x + s);
      const py = Math.round(along === 'x' ? y + s : y + t);
      if (px < 0 || py < 0 || px >= r.width || py >= r.height) continue;
      n++;
      if (test(r, px, py)) hit++;
    }
  return n ? hit / n : 0;
}

const parsed = new WeakMap<Buffer, Map<string, ParsedMaze>>();

export async function parseMaze(png: Buffer, box: Box): Promise<ParsedMaze> {
  const key = box.join(',');
  const cached = parsed.get(png)?.get(key);
  if (cached) return cached;
  const r = await raster(png);
  const area = toPixels(box, r.width, r.height);
  const f = darkFrame(r, area);
  if (!f) throw new ToolError(`no maze walls found in ${formatBox(box)}`);
  const t = wallThickness(r, f);
  const X0 = f.x0 + (t - 1) / 2;
  const X1 = f.x1 - (t - 1) / 2;
  const Y0 = f.y0 + (t - 1) / 2;
  const Y1 = f.y1 - (t - 1) / 2;
  const cols = cellCount(wallCrossings(r, f, t, true), X0, X1, t);
  const rows = cellCount(wallCrossings(r, f, t, false), Y0, Y1, t);
  if (cols < 2 || rows < 2) throw new ToolError(`could not find a grid of cells in ${formatBox(box)}`);
  const cw = (X1 - X0) / cols;
  const ch = (Y1 - Y0) / rows;
  const xAt = (c: number) => X0 + c * cw;
  const yAt = (row: number) => Y0 + row * ch;
  const half = Math.max(1, Math.round(Math.min(cw, ch) * 0.2));
  const wallAt = (x: number, y: number, along: 'x' | 'y') => edgeShare(r, isDark, x, y, along, half) > 0.5;
  const open = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  const link = (a: Cell, d: Dir) => {
    const [dr, dc] = STEP[d];
    (open[a.row] as number[])[a.col] |= BIT[d];
    (open[a.row + dr] as number[])[a.col + dc] |= BIT[OPPOSITE[d]];
  };
  for (let row = 0; row < rows; row++)
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && !wallAt(xAt(c + 1), yAt(row + 0.5), 'y')) link({ row, col: c }, 'E');
      if (row + 1 < rows && !wallAt(xAt(c + 0.5), yAt(row + 1), 'x')) link({ row, col: c }, 'S');
    }
  const toCell = (x: number, y: number): Cell => ({
    row: Math.max(0, Math.min(rows - 1, Math.floor((y - Y0) / ch))),
    col: Math.max(0, Math.min(cols - 1, Math.floor((x - X0) / cw))),
  });
  const markers: Marker[] = [];
  const doors: Door[] = [];
  const blobs = findBlobs(r, area, { background: [255, 255, 255], minPixels: Math.round(cw * ch * 0.05) });
  for (const b of blobs) {
    if (b.color === 'black' || b.color === 'gray') continue;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const inside = cx > f.x0 && cx < f.x1 && cy > f.y0 && cy < f.y1;
    const bbox = toBox(b, r.width, r.height);
    if (inside) {
      markers.push({ color: b.color, cell: toCell(cx, cy), box: bbox });
      continue;
    }
    // A label outside the frame names the gap in the wall next to it.
    const side: Dir = cx < f.x0 ? 'W' : cx > f.x1 ? 'E' : cy < f.y0 ? 'N' : 'S';
    const cell = toCell(cx, cy);
    const ex = side === 'W' ? X0 : side === 'E' ? X1 : xAt(cell.col + 0.5);
    const ey = side === 'N' ? Y0 : side === 'S' ? Y1 : yAt(cell.row + 0.5);
    const along = side === 'N' || side === 'S' ? 'x' : 'y';
    if (wallAt(ex, ey, along)) continue;
    doors.push({ color: b.color, side, cell, barred: edgeShare(r, isGrey, ex, ey, along, half) > 0.4 });
  }
  const maze: ParsedMaze = { rows, cols, open, frame: toBox(f, r.width, r.height), cellPx: Math.round(cw), markers, doors };
  const byBox = parsed.get(png) ?? new Map<string, ParsedMaze>();
  byBox.set(key, maze);
  parsed.set(png, byBox);
  return maze;
}

/** The maze as text: `+--+` walls, markers by their number, doors as letters of their colour outside. */
export function asciiMap(m: ParsedMaze): string {
  const lines: string[] = [];
  const markerAt = (row: number, col: number) => m.markers.findIndex((k) => k.cell.row === row && k.cell.col === col);
  const doorAt = (row: number, col: number, side: Dir) => m.doors.find((d) => d.cell.row === row && d.cell.col === col && d.side === side);
  const doorMark = (d: Door | undefined, wall: string) => (d ? (d.barred ? '#' : ' ') : wall);
  for (let row = 0; row < m.rows; row++) {
    let top = '+';
    let mid = '';
    for (let col = 0; col < m.cols; col++) {
      const o = m.open[row]?.[col] ?? 0;
      const topOpen = row === 0 ? doorMark(doorAt(row, col, 'N'), '-') : o & BIT.N ? ' ' : '-';
      top += `${topOpen.repeat(2)}+`;
      const left = col === 0 ? doorMark(doorAt(row, col, 'W'), '|') : o & BIT.W ? ' ' : '|';
      const k = markerAt(row, col);
      mid += `${left}${k >= 0 ? String(k + 1).padStart(2, ' ') : '  '}`;
    }
    const o = m.open[row]?.[m.cols - 1] ?? 0;
    mid += doorMark(doorAt(row, m.cols - 1, 'E'), o & BIT.E ? ' ' : '|');
    lines.push(top, mid);
  }
  let bottom = '+';
  for (let col = 0; col < m.cols; col++) bottom += `${doorMark(doorAt(m.rows - 1, col, 'S'), '-').repeat(2)}+`;
  lines.push(bottom);
  return lines.join('\n');
}
