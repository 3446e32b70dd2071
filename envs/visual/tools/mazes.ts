// Tools of the mazes family: a maze read off the pixels (walls between cell centres, coloured markers inside,
// coloured door labels outside the frame) and the family's "code interpreter" — shortest routes and wall
// following on the parsed grid. Conventions (how a length is counted, which way a walker faces at the start,
// whether barred doors can be used) are call arguments, so a replayed call applies the same convention.
import { findBlobs } from './blobs.ts';
import { boxOf, formatBox, imageOf } from './common.ts';
import type { Box, ToolCall } from './grammar.ts';
import { type PxBox, type Raster, raster, toBox, toPixels } from './pixels.ts';
import { type ToolContext, ToolError, type ToolSpec } from './types.ts';

// --- the maze as a graph (shared with the generator: geometry is general knowledge, not ground truth) -------

export type Dir = 'N' | 'E' | 'S' | 'W';
export const DIRS: Dir[] = ['N', 'E', 'S', 'W'];
export const BIT: Record<Dir, number> = { N: 1, E: 2, S: 4, W: 8 };
export const STEP: Record<Dir, [number, number]> = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
const OPPOSITE: Record<Dir, Dir> = { N: 'S', E: 'W', S: 'N', W: 'E' };

export interface Cell {
  row: number;
  col: number;
}

export interface MazeGraph {
  rows: number;
  cols: number;
  /** open[row][col]: bitmask of the sides with no wall towards a neighbouring cell (BIT). */
  open: number[][];
}

/** A gap in the outer wall (an exit) next to a boundary cell. */
export interface Door {
  color: string;
  side: Dir;
  cell: Cell;
  /** A bar drawn across the gap. */
  barred: boolean;
}

export const cellName = (c: Cell) => `r${c.row + 1}c${c.col + 1}`;

export function neighbours(g: MazeGraph, c: Cell): { dir: Dir; cell: Cell }[] {
  const out: { dir: Dir; cell: Cell }[] = [];
  for (const d of DIRS) {
    if (!((g.open[c.row]?.[c.col] ?? 0) & BIT[d])) continue;
    const [dr, dc] = STEP[d];
    const n = { row: c.row + dr, col: c.col + dc };
    if (n.row >= 0 && n.row < g.rows && n.col >= 0 && n.col < g.cols) out.push({ dir: d, cell: n });
  }
  return out;
}

/** Breadth-first distances (moves) from a cell, and the direction each cell was entered by. */
export function distances(g: MazeGraph, from: Cell): { dist: number[][]; via: (Dir | undefined)[][] } {
  const dist = Array.from({ length: g.rows }, () => new Array<number>(g.cols).fill(-1));
  const via = Array.from({ length: g.rows }, () => new Array<Dir | undefined>(g.cols).fill(undefined));
  (dist[from.row] as number[])[from.col] = 0;
  const queue: Cell[] = [from];
  for (let i = 0; i < queue.length; i++) {
    const c = queue[i] as Cell;
    for (const n of neighbours(g, c)) {
      if ((dist[n.cell.row] as number[])[n.cell.col] !== -1) continue;
      (dist[n.cell.row] as number[])[n.cell.col] = ((dist[c.row] as number[])[c.col] as number) + 1;
      (via[n.cell.row] as (Dir | undefined)[])[n.cell.col] = n.dir;
      queue.push(n.cell);
    }
  }
  return { dist, via };
}

/** The moves of a shortest route, or undefined when `to` cannot be reached. */
export function shortestRoute(g: MazeGraph, from: Cell, to: Cell): Dir[] | undefined {
  const { dist, via } = distances(g, from);
  if (dist[to.row]?.[to.col] === -1) return undefined;
  const moves: Dir[] = [];
  let c = to;
  while (c.row !== from.row || c.col !== from.col) {
    const d = via[c.row]?.[c.col] as Dir;
    moves.push(d);
    const [dr, dc] = STEP[d];
    c = { row: c.row - dr, col: c.col - dc };
  }
  return moves.reverse();
}

/** Quarter turns between two headings (a reversal is two). */
function quarterTurns(a: Dir, b: Dir): number {
  const k = (DIRS.indexOf(b) - DIRS.indexOf(a) + 4) % 4;
  return k === 3 ? 1 : k;
}

/** Turns along a route; `heading` is the way the walker faces at the start ('first': its first move). */
export function turnsOf(moves: Dir[], heading: Dir | 'first'): number {
  let facing = heading === 'first' ? moves[0] : heading;
  let turns = 0;
  for (const m of moves) {
    if (facing) turns += quarterTurns(facing, m);
    facing = m;
  }
  return turns;
}

export type Count = 'moves' | 'cells' | 'inner';

/** A route's length: moves, cells with both ends, or cells strictly between the ends. */
export function lengthOf(moves: number, count: Count): number {
  return count === 'cells' ? moves + 1 : count === 'inner' ? Math.max(0, moves - 1) : moves;
}

/** Moves of a wall-following walk (keep one hand on the wall) from `from` to `to`, or undefined if it never arrives. */
export function wallFollow(g: MazeGraph, from: Cell, to: Cell, hand: 'right' | 'left', heading: Dir): number | undefined {
  const turn = (d: Dir, k: number) => DIRS[(DIRS.indexOf(d) + k + 4) % 4] as Dir;
  // Right hand: try right, ahead, left, back; left hand mirrored.
  const order = hand === 'right' ? [1, 0, -1, 2] : [-1, 0, 1, 2];
  let c = from;
  let facing = heading;
  const limit = 4 * g.rows * g.cols + 4;
  for (let moves = 0; moves <= limit; moves++) {
    if (c.row === to.row && c.col === to.col) return moves;
    const open = neighbours(g, c);
    const next = order.map((k) => turn(facing, k)).find((d) => open.some((n) => n.dir === d));
    if (!next) return undefined;
    const n = open.find((x) => x.dir === next) as { dir: Dir; cell: Cell };
    c = n.cell;
    facing = next;
  }
  return undefined;
}

/** Moves from `from` out through each door (into the doorway and one step outside). */
export function doorDistances(g: MazeGraph, from: Cell, doors: Door[], locks: 'respect' | 'ignore'): { door: Door; moves: number | undefined }[] {
  const { dist } = distances(g, from);
  return doors.map((door) => {
    const d = dist[door.cell.row]?.[door.cell.col] ?? -1;
    const usable = d >= 0 && (locks === 'ignore' || !door.barred);
    return { door, moves: usable ? d + 1 : undefined };
  });
}

export const oppositeOf = (d: Dir) => OPPOSITE[d];

// --- perception: the maze from pixels ----------------------------------------------------------------------

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

// --- the tools ---------------------------------------------------------------------------------------------

async function mazeOf(call: ToolCall, ctx: ToolContext): Promise<ParsedMaze> {
  return parseMaze(imageOf(call, ctx).png, boxOf(call));
}

/** The marker a from=/to= argument names (a colour), or an error listing the markers. */
function markerArg(m: ParsedMaze, call: ToolCall, key: string): Marker {
  const want = call.args[key]?.toLowerCase();
  if (!want) throw new ToolError(`${key}= is missing: name a marker by its colour (${m.markers.map((k) => k.color).join(', ') || 'no markers found'})`);
  const found = m.markers.find((k) => k.color === want);
  if (!found) throw new ToolError(`no ${want} marker in the maze; markers: ${m.markers.map((k) => k.color).join(', ') || 'none'}`);
  return found;
}

function choiceArg<T extends string>(call: ToolCall, key: string, options: readonly T[], fallback: T): T {
  const v = (call.args[key] ?? fallback).toLowerCase() as T;
  if (!options.includes(v)) throw new ToolError(`${key}=${v} is not one of ${options.join('|')}`);
  return v;
}

const HEADINGS = ['first', 'north', 'east', 'south', 'west'] as const;
const headingDir = (h: (typeof HEADINGS)[number]): Dir | 'first' => (h === 'first' ? 'first' : (h[0]?.toUpperCase() as Dir));

export interface GridData {
  rows: number;
  cols: number;
  frame: Box;
  markers: { color: string; cell: string }[];
  doors: { color: string; side: Dir; cell: string; barred: boolean }[];
}

const grid: ToolSpec = {
  name: 'grid',
  usage: 'grid [x1,y1,x2,y2] (image=N)',
  summary: 'read the maze in the box off the pixels: size in cells, an ASCII map of its walls, coloured markers by cell (r1c1 = top-left) and doors in the outer wall',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const markers = m.markers.map((k) => ({ color: k.color, cell: cellName(k.cell) }));
    const doors = m.doors.map((d) => ({ color: d.color, side: d.side, cell: cellName(d.cell), barred: d.barred }));
    const text = [
      `maze ${m.rows}×${m.cols} cells, frame ${formatBox(m.frame)}`,
      `markers: ${markers.map((k, i) => `${i + 1}=${k.color} at ${k.cell}`).join(', ') || 'none'}`,
      ...(doors.length ? [`doors in the outer wall: ${doors.map((d) => `${d.color} (${d.side} side of ${d.cell}${d.barred ? ', a grey bar across it' : ''})`).join(', ')}`] : []),
      asciiMap(m),
    ].join('\n');
    const data: GridData = { rows: m.rows, cols: m.cols, frame: m.frame, markers, doors };
    return { text, data };
  },
};

export interface PathData {
  from: string;
  to: string;
  count: Count;
  heading: string;
  locks: string;
  /** The route's length under `count`. */
  length?: number;
  moves?: number;
  turns?: number;
  route?: string;
  /** to=door: every door's distance in moves and the nearest usable one. */
  doors?: { color: string; moves: number | null; barred: boolean }[];
  nearestDoor?: string;
}

const path: ToolSpec = {
  name: 'path',
  usage: 'path [x1,y1,x2,y2] from=<marker colour> to=<marker colour>|door count=moves|cells|inner heading=first|north|east|south|west locks=respect|ignore',
  summary: 'shortest route in the maze between two markers (or out through a door): its length counted as moves, cells incl. both ends or cells between, the moves, and the turns made when the walker starts facing `heading` (first = its first move); locks=respect treats barred doors as closed',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const from = markerArg(m, call, 'from');
    const count = choiceArg(call, 'count', ['moves', 'cells', 'inner'] as const, 'moves');
    const heading = choiceArg(call, 'heading', HEADINGS, 'first');
    const locks = choiceArg(call, 'locks', ['respect', 'ignore'] as const, 'respect');
    if ((call.args.to ?? '').toLowerCase().startsWith('door')) {
      if (!m.doors.length) throw new ToolError('no doors found in the outer wall');
      const all = doorDistances(m, from.cell, m.doors, locks).map((x) => ({ color: x.door.color, moves: x.moves ?? null, barred: x.door.barred }));
      const usable = all.filter((d) => d.moves !== null).sort((a, b) => (a.moves as number) - (b.moves as number));
      const nearest = usable[0];
      const data: PathData = { from: from.color, to: 'door', count, heading, locks, doors: all, ...(nearest ? { nearestDoor: nearest.color, moves: nearest.moves as number, length: lengthOf(nearest.moves as number, count) } : {}) };
      const list = all.map((d) => `${d.color}${d.barred ? ' (barred)' : ''}: ${d.moves === null ? 'not usable' : `${d.moves} moves`}`).join(', ');
      return { text: `from ${from.color} ${cellName(from.cell)} out of the maze (locks=${locks}): ${list}; nearest usable door: ${nearest?.color ?? 'none'}`, data };
    }
    const to = markerArg(m, call, 'to');
    const moves = shortestRoute(m, from.cell, to.cell);
    if (!moves) return { text: `no route from ${from.color} ${cellName(from.cell)} to ${to.color} ${cellName(to.cell)}`, data: { from: from.color, to: to.color, count, heading, locks } satisfies PathData };
    const length = lengthOf(moves.length, count);
    const turns = turnsOf(moves, headingDir(heading));
    const data: PathData = { from: from.color, to: to.color, count, heading, locks, length, moves: moves.length, turns, route: moves.join('') };
    return {
      text: `shortest route ${from.color} ${cellName(from.cell)} → ${to.color} ${cellName(to.cell)}: length ${length} (count=${count}; ${moves.length} moves); route ${moves.join('')}; ${turns} turn(s) with heading=${heading}`,
      data,
    };
  },
};

export interface FollowData {
  from: string;
  to: string;
  hand: string;
  heading: string;
  moves?: number;
}

const follow: ToolSpec = {
  name: 'follow',
  usage: 'follow [x1,y1,x2,y2] from=<marker colour> to=<marker colour> hand=right|left heading=north|east|south|west',
  summary: 'walk the maze keeping one hand on the wall, starting at `from` facing `heading`; the number of moves until `to` is reached',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const from = markerArg(m, call, 'from');
    const to = markerArg(m, call, 'to');
    const hand = choiceArg(call, 'hand', ['right', 'left'] as const, 'right');
    const heading = choiceArg(call, 'heading', ['north', 'east', 'south', 'west'] as const, 'north');
    const moves = wallFollow(m, from.cell, to.cell, hand, heading[0]?.toUpperCase() as Dir);
    const data: FollowData = { from: from.color, to: to.color, hand, heading, ...(moves !== undefined ? { moves } : {}) };
    return {
      text:
        moves === undefined
          ? `the ${hand}-hand walk from ${from.color} never reaches ${to.color}`
          : `${hand}-hand walk from ${from.color} ${cellName(from.cell)} (facing ${heading}) reaches ${to.color} ${cellName(to.cell)} after ${moves} moves`,
      data,
    };
  },
};

export const MAZES_TOOLS: ToolSpec[] = [grid, path, follow];
