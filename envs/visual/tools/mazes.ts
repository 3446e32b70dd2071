// Tools of the mazes family: a maze read off the pixels (walls between cell centres, coloured markers inside,
// coloured door labels outside the frame) and the family's "code interpreter" — shortest routes and wall
// following on the parsed grid. Conventions (how a length is counted, which way a walker faces at the start,
// whether barred doors can be used) are call arguments, so a replayed call applies the same convention.
import { boxOf, formatBox, imageOf } from './common.ts';
import type { Box, ToolCall } from './grammar.ts';
import {
  cellName,
  doorDistances,
  lengthOf,
  shortestRoute,
  turnsOf,
  wallFollow,
  type Count,
  type Dir,
} from './maze-graph.ts';
import { asciiMap, type Marker, parseMaze, type ParsedMaze } from './maze-parse.ts';
import { type ToolContext, ToolError, type ToolSpec } from './types.ts';

async function mazeOf(call: ToolCall, ctx: ToolContext): Promise<ParsedMaze> {
  return parseMaze(imageOf(call, ctx).png, boxOf(call));
}

/** The marker a from=/to= argument names (a colour), or an error listing the markers. */
function markerArg(m: ParsedMaze, call: ToolCall, key: string): Marker {
  const want = call.args[key]?.toLowerCase();
  if (!want)
    throw new ToolError(
      `${key}= is missing: name a marker by its colour (${m.markers.map((k) => k.color).join(', ') || 'no markers found'})`,
    );
  const found = m.markers.find((k) => k.color === want);
  if (!found)
    throw new ToolError(
      `no ${want} marker in the maze; markers: ${m.markers.map((k) => k.color).join(', ') || 'none'}`,
    );
  return found;
}

function choiceArg<T extends string>(call: ToolCall, key: string, options: readonly T[], fallback: T): T {
  const v = (call.args[key] ?? fallback).toLowerCase() as T;
  if (!options.includes(v)) throw new ToolError(`${key}=${v} is not one of ${options.join('|')}`);
  return v;
}

const HEADINGS = ['first', 'north', 'east', 'south', 'west'] as const;
const headingDir = (h: (typeof HEADINGS)[number]): Dir | 'first' =>
  h === 'first' ? 'first' : (h[0]?.toUpperCase() as Dir);

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
  summary:
    'read the maze in the box off the pixels: size in cells, an ASCII map of its walls, coloured markers by cell (r1c1 = top-left) and doors in the outer wall',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const markers = m.markers.map((k) => ({ color: k.color, cell: cellName(k.cell) }));
    const doors = m.doors.map((d) => ({ color: d.color, side: d.side, cell: cellName(d.cell), barred: d.barred }));
    const text = [
      `maze ${m.rows}×${m.cols} cells, frame ${formatBox(m.frame)}`,
      `markers: ${markers.map((k, i) => `${i + 1}=${k.color} at ${k.cell}`).join(', ') || 'none'}`,
      ...(doors.length
        ? [
            `doors in the outer wall: ${doors.map((d) => `${d.color} (${d.side} side of ${d.cell}${d.barred ? ', a grey bar across it' : ''})`).join(', ')}`,
          ]
        : []),
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
  usage:
    'path [x1,y1,x2,y2] from=<marker colour> to=<marker colour>|door count=moves|cells|inner heading=first|north|east|south|west locks=respect|ignore',
  summary:
    'shortest route in the maze between two markers (or out through a door): its length counted as moves, cells incl. both ends or cells between, the moves, and the turns made when the walker starts facing `heading` (first = its first move); locks=respect treats barred doors as closed',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const from = markerArg(m, call, 'from');
    const count = choiceArg(call, 'count', ['moves', 'cells', 'inner'] as const, 'moves');
    const heading = choiceArg(call, 'heading', HEADINGS, 'first');
    const locks = choiceArg(call, 'locks', ['respect', 'ignore'] as const, 'respect');
    if ((call.args.to ?? '').toLowerCase().startsWith('door')) {
      if (!m.doors.length) throw new ToolError('no doors found in the outer wall');
      const all = doorDistances(m, from.cell, m.doors, locks).map((x) => ({
        color: x.door.color,
        moves: x.moves ?? null,
        barred: x.door.barred,
      }));
      const usable = all.filter((d) => d.moves !== null).sort((a, b) => (a.moves as number) - (b.moves as number));
      const nearest = usable[0];
      const data: PathData = {
        from: from.color,
        to: 'door',
        count,
        heading,
        locks,
        doors: all,
        ...(nearest
          ? {
              nearestDoor: nearest.color,
              moves: nearest.moves as number,
              length: lengthOf(nearest.moves as number, count),
            }
          : {}),
      };
      const list = all
        .map((d) => `${d.color}${d.barred ? ' (barred)' : ''}: ${d.moves === null ? 'not usable' : `${d.moves} moves`}`)
        .join(', ');
      return {
        text: `from ${from.color} ${cellName(from.cell)} out of the maze (locks=${locks}): ${list}; nearest usable door: ${nearest?.color ?? 'none'}`,
        data,
      };
    }
    const to = markerArg(m, call, 'to');
    const moves = shortestRoute(m, from.cell, to.cell);
    if (!moves)
      return {
        text: `no route from ${from.color} ${cellName(from.cell)} to ${to.color} ${cellName(to.cell)}`,
        data: { from: from.color, to: to.color, count, heading, locks } satisfies PathData,
      };
    const length = lengthOf(moves.length, count);
    const turns = turnsOf(moves, headingDir(heading));
    const data: PathData = {
      from: from.color,
      to: to.color,
      count,
      heading,
      locks,
      length,
      moves: moves.length,
      turns,
      route: moves.join(''),
    };
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
  summary:
    'walk the maze keeping one hand on the wall, starting at `from` facing `heading`; the number of moves until `to` is reached',
  async run(call, ctx) {
    const m = await mazeOf(call, ctx);
    const from = markerArg(m, call, 'from');
    const to = markerArg(m, call, 'to');
    const hand = choiceArg(call, 'hand', ['right', 'left'] as const, 'right');
    const heading = choiceArg(call, 'heading', ['north', 'east', 'south', 'west'] as const, 'north');
    const moves = wallFollow(m, from.cell, to.cell, hand, heading[0]?.toUpperCase() as Dir);
    const data: FollowData = {
      from: from.color,
      to: to.color,
      hand,
      heading,
      ...(moves !== undefined ? { moves } : {}),
    };
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
