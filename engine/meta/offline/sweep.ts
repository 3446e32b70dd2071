// The systematic search of a program's typed parameter space, for when the evidence points at nothing left: every
// declared tunable of the parent's stages and store (the lib's declarations: search ranges, enum values, flags; fixed
// fidelity settings left alone) — or, for a design edited through its config, every leaf of it — is a coordinate,
// and each coordinate's grid values are tried nearest first, one coordinate after another. A value past one that lost
// on the same side is not tried (the range is halved there); a coordinate whose moves changed nothing anywhere fades.
// So a 40-step search walks through the parent's ranges where a 12-step one only takes the first moves.
import type { Edit } from '../types.ts';
import type { Candidate } from './candidate.ts';
import { type ConfigLeaf, configLeaves } from './config-edit.ts';
import { movesFrom } from './grid.ts';
import { identity, type Lessons } from './lessons.ts';
import type { Reading } from './reading.ts';
import { defaultText, literal, STAGES, STORE_OPTIONS, storeDefault, type Tunable } from './stage-catalogue.ts';
import type { Pipeline, StageCall } from './stage-edit.ts';
import { historyKey, learnKeys } from './structural.ts';
import type { EditOutcome, ProgramFiles } from '../types.ts';

interface Coordinate {
  kind: 'stage-tune' | 'store' | 'config';
  key: string;
  t: Tunable;
  /** The value the parent runs with (typed: numbers and flags as such, enum values bare). */
  current: number | string | boolean;
}

const bare = (text: string) => text.replace(/^['"]|['"]$/g, '');

function typed(t: Tunable, text: string): number | string | boolean {
  if (t.kind === 'int' || t.kind === 'float') return Number(text);
  if (t.kind === 'bool') return text === 'true';
  return bare(text);
}

/** What an edit of a coordinate sets: numbers and flags typed, enum values as source text ('episodes' quoted). */
function editValue(c: Coordinate, v: number | string | boolean): number | string | boolean {
  if (c.kind === 'store') return typeof v === 'string' ? literal(v) : String(v);
  if (c.kind === 'config') return v;
  return typeof v === 'string' ? literal(v) : v;
}

/** Whether a stage's option does anything as the stage is written (a layout's own options, a window under before/after). */
function optionApplies(s: StageCall, key: string): boolean {
  if (s.name === 'packWhole') {
    const blocks = bare(s.options.layout ?? 'grouped') === 'blocks';
    if (key === 'header') return blocks;
    if (key === 'render' || key === 'groupBy' || key === 'notes') return !blocks;
  }
  if (s.name === 'neighbourExpand' && key === 'window')
    return s.options.before === undefined && s.options.after === undefined;
  return true;
}

/** Store options the sweep varies, and when each does anything (the flags that need a stage are the vocabulary's). */
function storeApplies(key: string, store: (k: string) => string, r: Reading): boolean {
  const units = store('units');
  switch (key) {
    case 'window':
      return units === 'windows';
    case 'episodeText':
      return units === 'episodes';
    case 'itemWindow':
    case 'maxItems':
    case 'transcriptChars':
      return units === 'items';
    case 'linkEpisodes':
    case 'linkMin':
      return store('episodeIndex') === 'true';
    case 'insightChars':
      return store('insights') === 'true';
    case 'keep':
      return r.tasksWithOutcomes;
    case 'units':
    case 'index':
    case 'findBy':
    case 'maxUnitChars':
      return true;
    default:
      return false;
  }
}

function pipelineCoordinates(pipeline: Pipeline, r: Reading): Coordinate[] {
  const out: Coordinate[] = [];
  // One stage of a name is tuned by its name (a second one of the same name is left as it is).
  const seen = new Set<string>();
  for (const s of pipeline.stages) {
    const info = STAGES[s.name];
    if (!info || seen.has(s.name)) continue;
    seen.add(s.name);
    for (const [key, t] of Object.entries(info.options)) {
      if (!optionApplies(s, key)) continue;
      const text = s.options[key] ?? defaultText(t);
      if (text === undefined) continue;
      out.push({ kind: 'stage-tune', key: `${s.name}.${key}`, t, current: typed(t, text) });
    }
  }
  const store = (k: string) => bare(pipeline.store[k] ?? storeDefault(k) ?? '');
  for (const [key, t] of Object.entries(STORE_OPTIONS)) {
    if (!storeApplies(key, store, r)) continue;
    out.push({ kind: 'store', key, t, current: typed(t, pipeline.store[key] ?? storeDefault(key) ?? '') });
  }
  return out;
}

/** A config leaf as a coordinate: a numeric range around its value (none is declared), its flag, its union's values. */
function leafCoordinate(l: ConfigLeaf): Coordinate | undefined {
  if (l.kind === 'boolean')
    return { kind: 'config', key: l.path, t: { kind: 'bool', default: l.value as boolean }, current: l.value };
  if (l.kind === 'string')
    return l.alternatives.length
      ? {
          kind: 'config',
          key: l.path,
          t: { kind: 'enum', default: l.value as string, values: [l.value as string, ...l.alternatives] },
          current: l.value,
        }
      : undefined;
  const v = l.value as number;
  const int = Number.isInteger(v) && Math.abs(v) >= 1;
  const search: [number, number] =
    v >= 0 && v <= 1 && !int ? [0, 1] : v > 0 ? [v / 4, v * 4] : v === 0 ? [0, 4] : [v * 4, v / 4];
  return {
    kind: 'config',
    key: l.path,
    t: int
      ? { kind: 'int', default: v, min: search[0], max: search[1], search }
      : { kind: 'float', default: v, min: search[0], max: search[1], search },
    current: v,
  };
}

/** How much history says a coordinate is worth: untried 1, moved and inert everywhere 0.15, helped somewhere more. */
function coordinateFactor(c: Coordinate, learned: ReturnType<typeof learnKeys>): number {
  const h = learned.get(historyKey({ kind: c.kind, key: c.key, from: '', to: '' }));
  if (!h || c.kind === 'store') return 1;
  if (h.inert === h.tries) return 0.15;
  return h.helped ? 1 + 10 * Math.max(0, h.best) : 0.6;
}

function sweepOf(coordinates: Coordinate[], lessons: Lessons, history: EditOutcome[]): Candidate[] {
  const learned = learnKeys(history);
  const out: Candidate[] = [];
  for (const c of coordinates) {
    const factor = coordinateFactor(c, learned);
    const stopped = new Set<string>();
    for (const m of movesFrom(c.t, c.current)) {
      if (stopped.has(m.side)) continue;
      const to = editValue(c, m.value);
      const from = editValue(c, c.current);
      const edits: Edit[] = [{ kind: c.kind, key: c.key, from, to }];
      // Past a value that lost on this side, the range is not searched further.
      if (m.side !== 'other' && lessons.lost.has(identity(edits))) {
        stopped.add(m.side);
        continue;
      }
      out.push({
        mode: 'sweep',
        weight: (0.5 * factor) / m.distance,
        why: `sweep of ${c.key} over its declared range`,
        what: `${c.key} ${String(from)} → ${String(to)}`,
        edits,
      });
    }
  }
  return out;
}

export function pipelineSweep(pipeline: Pipeline, r: Reading, lessons: Lessons, history: EditOutcome[]): Candidate[] {
  return sweepOf(pipelineCoordinates(pipeline, r), lessons, history);
}

export function configSweep(
  files: ProgramFiles,
  usableLeaf: (path: string) => boolean,
  lessons: Lessons,
  history: EditOutcome[],
): Candidate[] {
  const coordinates = configLeaves(files)
    .filter((l) => usableLeaf(l.path))
    .map(leafCoordinate)
    .filter((c): c is Coordinate => c !== undefined);
  return sweepOf(coordinates, lessons, history);
}
