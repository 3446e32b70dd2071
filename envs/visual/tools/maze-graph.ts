// A maze as a graph of cells with open sides, and what can be computed on it: shortest routes, turns, lengths
// under a counting convention, wall-following walks, distances to doors. Shared by the generator and the tools:
// geometry is general knowledge, not ground truth.

export type Dir = 'N' | 'E' | 'S' | 'W';
export const DIRS: Dir[] = ['N', 'E', 'S', 'W'];
export const BIT: Record<Dir, number> = { N: 1, E: 2, S: 4, W: 8 };
export const STEP: Record<Dir, [number, number]> = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
export const OPPOSITE: Record<Dir, Dir> = { N: 'S', E: 'W', S: 'N', W: 'E' };

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
