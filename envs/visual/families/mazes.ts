// Mazes: a perfect grid maze (9–13 cells a side, carved by a depth-first backtracker, so the route between two
// cells is unique) drawn with thick dark walls, a green start disc S, a red goal disc G and, for one template,
// coloured door labels beside gaps in the outer wall (a grey bar across a gap marks a barred door). Questions
// ask for a route's length, its turns, the nearest way out or the length of a wall-following walk; each
// template fixes one convention the question leaves open (the learnable quirk).
import { svgDoc, text } from '../render.ts';
import type { Family, Template, TemplateInstance } from '../task.ts';
import { call } from '../tools/grammar.ts';
import {
  type Cell,
  DIRS,
  type Dir,
  type Door,
  doorDistances,
  type MazeGraph,
  BIT,
  lengthOf,
  oppositeOf,
  shortestRoute,
  STEP,
  turnsOf,
  wallFollow,
} from '../tools/maze-graph.ts';
import { COLORS, type ColorName } from '../tools/palette.ts';
import { choice, int, sample } from './random.ts';

const WALL = '#222222';
const BAR = COLORS.gray;
const START = 'green';
const GOAL = 'red';
const DOOR_COLORS: ColorName[] = ['blue', 'orange', 'purple', 'cyan', 'yellow', 'pink', 'brown'];

/** A perfect maze carved by a randomised depth-first backtracker. */
export function carve(random: () => number, rows: number, cols: number): MazeGraph {
  const open = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  const seen = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  const stack: Cell[] = [{ row: int(random, 0, rows - 1), col: int(random, 0, cols - 1) }];
  (seen[stack[0]?.row as number] as boolean[])[stack[0]?.col as number] = true;
  while (stack.length) {
    const c = stack[stack.length - 1] as Cell;
    const fresh = DIRS.filter((d) => {
      const [dr, dc] = STEP[d];
      const r = c.row + dr;
      const k = c.col + dc;
      return r >= 0 && r < rows && k >= 0 && k < cols && !seen[r]?.[k];
    });
    if (!fresh.length) {
      stack.pop();
      continue;
    }
    const d = choice(random, fresh);
    const [dr, dc] = STEP[d];
    const n = { row: c.row + dr, col: c.col + dc };
    (open[c.row] as number[])[c.col] |= BIT[d];
    (open[n.row] as number[])[n.col] |= BIT[oppositeOf(d)];
    (seen[n.row] as boolean[])[n.col] = true;
    stack.push(n);
  }
  return { rows, cols, open };
}

const randomCell = (random: () => number, g: MazeGraph): Cell => ({
  row: int(random, 0, g.rows - 1),
  col: int(random, 0, g.cols - 1),
});

interface Drawing {
  g: MazeGraph;
  markers: { cell: Cell; color: ColorName; letter: string }[];
  doors?: Door[];
}

/** The maze as SVG: walls as square-capped strokes, discs with a white letter, door labels outside gaps. */
function draw({ g, markers, doors = [] }: Drawing): string {
  const cell = Math.round(640 / Math.max(g.rows, g.cols));
  const margin = Math.round(cell * 1.1);
  const t = Math.max(5, Math.round(cell / 9));
  const x = (c: number) => margin + c * cell;
  const y = (r: number) => margin + r * cell;
  const gap = (r: number, c: number, side: Dir) =>
    doors.some((d) => d.cell.row === r && d.cell.col === c && d.side === side);
  const segs: string[] = [];
  for (let r = 0; r < g.rows; r++)
    for (let c = 0; c < g.cols; c++) {
      const o = g.open[r]?.[c] ?? 0;
      if (!(o & BIT.N) && !(r === 0 && gap(r, c, 'N'))) segs.push(`M${x(c)} ${y(r)}H${x(c + 1)}`);
      if (!(o & BIT.W) && !(c === 0 && gap(r, c, 'W'))) segs.push(`M${x(c)} ${y(r)}V${y(r + 1)}`);
      if (r === g.rows - 1 && !gap(r, c, 'S')) segs.push(`M${x(c)} ${y(r + 1)}H${x(c + 1)}`);
      if (c === g.cols - 1 && !gap(r, c, 'E')) segs.push(`M${x(c + 1)} ${y(r)}V${y(r + 1)}`);
    }
  const walls = `<path d="${segs.join('')}" stroke="${WALL}" stroke-width="${t}" stroke-linecap="square" fill="none"/>`;
  const discs = markers
    .map((m) => {
      const cx = x(m.cell.col + 0.5);
      const cy = y(m.cell.row + 0.5);
      return (
        `<circle cx="${cx}" cy="${cy}" r="${Math.round(cell * 0.32)}" fill="${COLORS[m.color]}"/>` +
        text(cx, cy + cell * 0.15, m.letter, {
          size: Math.round(cell * 0.42),
          fill: '#ffffff',
          anchor: 'middle',
          weight: 'bold',
        })
      );
    })
    .join('');
  const labels = doors
    .map((d) => {
      const [dr, dc] = STEP[d.side];
      const cx = x(d.cell.col + 0.5 + dc * 1.05);
      const cy = y(d.cell.row + 0.5 + dr * 1.05);
      const label = `<rect x="${cx - cell * 0.28}" y="${cy - cell * 0.28}" width="${cell * 0.56}" height="${cell * 0.56}" rx="${cell * 0.08}" fill="${COLORS[d.color as ColorName]}"/>`;
      if (!d.barred) return label;
      // The bar spans the gap on the wall line.
      const horizontal = d.side === 'N' || d.side === 'S';
      const lx = x(d.cell.col + (d.side === 'E' ? 1 : 0));
      const ly = y(d.cell.row + (d.side === 'S' ? 1 : 0));
      const bar = horizontal
        ? `<rect x="${lx + t / 2}" y="${ly - t * 0.8}" width="${cell - t}" height="${t * 1.6}" fill="${BAR}"/>`
        : `<rect x="${lx - t * 0.8}" y="${ly + t / 2}" width="${t * 1.6}" height="${cell - t}" fill="${BAR}"/>`;
      return label + bar;
    })
    .join('');
  return svgDoc(g.cols * cell + 2 * margin, g.rows * cell + 2 * margin, walls + labels + discs);
}

/** A maze with a start and a goal whose route is at least `minMoves` long. */
function mazeWithEnds(random: () => number, minShare = 0.8): { g: MazeGraph; s: Cell; goal: Cell; route: Dir[] } {
  for (;;) {
    const g = carve(random, int(random, 9, 13), int(random, 9, 13));
    const s = randomCell(random, g);
    const goal = randomCell(random, g);
    const route = shortestRoute(g, s, goal);
    if (route && route.length >= minShare * (g.rows + g.cols)) return { g, s, goal, route };
  }
}

const ends = (s: Cell, goal: Cell) => [
  { cell: s, color: START as ColorName, letter: 'S' },
  { cell: goal, color: GOAL as ColorName, letter: 'G' },
];

const length: Template = {
  id: 'route-length',
  quirk: "a route's length counts the cells it occupies, S and G included (moves + 1)",
  generate(random): TemplateInstance {
    const { g, s, goal, route } = mazeWithEnds(random);
    return {
      svg: draw({ g, markers: ends(s, goal) }),
      instruction:
        'How long is the shortest route from the green start S to the red goal G in this maze? Answer with a number.',
      answer: { kind: 'number', value: lengthOf(route.length, 'cells'), absolute: 0 },
      oracle: [call('grid'), call('path', undefined, { from: START, to: GOAL, count: 'cells' })],
    };
  },
};

const turns: Template = {
  id: 'route-turns',
  quirk:
    'the walker stands at S facing north (up the page), so setting off in another direction already counts as a turn (a reversal as two)',
  generate(random): TemplateInstance {
    for (;;) {
      const { g, s, goal, route } = mazeWithEnds(random);
      // Only when the first move is not north do the two headings disagree.
      if (route[0] === 'N') continue;
      return {
        svg: draw({ g, markers: ends(s, goal) }),
        instruction:
          'A walker crosses the maze along the shortest way from the green disc S to the red disc G. How many times does the walker turn, left or right, on the way?',
        answer: { kind: 'number', value: turnsOf(route, 'N'), absolute: 0 },
        oracle: [call('grid'), call('path', undefined, { from: START, to: GOAL, heading: 'north' })],
      };
    }
  },
};

const doors: Template = {
  id: 'nearest-door',
  quirk: 'a door with a grey bar across its gap is locked and cannot be used',
  generate(random): TemplateInstance {
    for (;;) {
      const g = carve(random, int(random, 9, 13), int(random, 9, 13));
      const s = randomCell(random, g);
      const colors = sample(random, DOOR_COLORS, 4);
      const placed: Door[] = [];
      for (const color of colors) {
        const side = choice(random, DIRS);
        const along = side === 'N' || side === 'S' ? int(random, 0, g.cols - 1) : int(random, 0, g.rows - 1);
        const cell =
          side === 'N'
            ? { row: 0, col: along }
            : side === 'S'
              ? { row: g.rows - 1, col: along }
              : side === 'W'
                ? { row: along, col: 0 }
                : { row: along, col: g.cols - 1 };
        // Doors keep two cells apart so their labels never touch.
        if (placed.some((d) => Math.abs(d.cell.row - cell.row) + Math.abs(d.cell.col - cell.col) < 2)) break;
        placed.push({ color, side, cell, barred: false });
      }
      if (placed.length < 4) continue;
      const dist = doorDistances(g, s, placed, 'ignore').map((x) => x.moves as number);
      if (new Set(dist).size < dist.length || Math.min(...dist) < 3) continue;
      const order = placed.map((d, i) => ({ d, m: dist[i] as number })).sort((a, b) => a.m - b.m);
      // The nearest door is barred; sometimes a farther one too, never the nearest open one.
      (order[0] as { d: Door }).d.barred = true;
      if (random() < 0.5) (order[int(random, 2, 3)] as { d: Door }).d.barred = true;
      const answer = (order[1] as { d: Door }).d.color;
      return {
        svg: draw({ g, markers: [{ cell: s, color: START, letter: 'S' }], doors: placed }),
        instruction:
          'Starting at the green disc S, through which coloured door in the outer wall is the quickest way out of the maze? Answer with the colour of the door.',
        answer: { kind: 'text', value: answer, aliases: [`${answer} door`, `the ${answer} door`] },
        oracle: [call('grid'), call('path', undefined, { from: START, to: 'door', locks: 'respect' })],
      };
    }
  },
};

const HEADING_WORDS: Record<Dir, string> = { N: 'north', E: 'east', S: 'south', W: 'west' };

const follow: Template = {
  id: 'wall-follow',
  quirk: 'the walker sets off from S facing east (to the right of the page)',
  generate(random): TemplateInstance {
    const hand = random() < 0.5 ? 'right' : 'left';
    for (;;) {
      const { g, s, goal } = mazeWithEnds(random, 0.6);
      const walks = DIRS.map((d) => wallFollow(g, s, goal, hand, d));
      const east = walks[1];
      // Only mazes where the start heading matters: the east walk differs from the other three.
      if (east === undefined || walks.filter((w) => w === east).length > 1) continue;
      return {
        svg: draw({ g, markers: ends(s, goal) }),
        instruction: `A walker starts on the green disc S and keeps the ${hand} hand on the maze wall until reaching the red disc G. How many moves does this walk take?`,
        answer: { kind: 'number', value: east, absolute: 0 },
        oracle: [call('grid'), call('follow', undefined, { from: START, to: GOAL, hand, heading: HEADING_WORDS.E })],
      };
    }
  },
};

export const mazes: Family = {
  name: 'mazes',
  description:
    'Mazes: a grid maze of 9–13 cells a side with thick dark walls, a green start disc S, a red goal disc G and, ' +
    'in some tasks, coloured door labels beside gaps in the outer wall (some gaps have a grey bar across). The ' +
    "questions ask for the shortest route's length or turns, the door of the quickest way out, or the length of " +
    'a wall-following walk; each question type has one fixed convention the wording leaves open (how length is ' +
    'counted, which way the walker faces at the start, whether barred doors can be used). Answer with a number ' +
    'or a colour name.',
  tools: ['grid', 'path', 'follow'],
  templates: [length, turns, doors, follow],
};
