// What the offline agent knows about each stage of automemo/lib/pipeline: where it goes in a pipeline (its phase:
// query rewriting before search, search before fusion, rescoring and expansion before diversity, packing last), the
// call it writes when it adds one, and the options it may tune with their ranges.
import { calledNames, type StageCall } from './stage-edit.ts';

export type Tunable = { kind: 'int'; min: number; max: number } | { kind: 'float'; min: number; max: number } | { kind: 'enum'; values: string[] };

export interface StageInfo {
  phase: number;
  role: 'rewrite' | 'search' | 'fuse' | 'rescore' | 'expand' | 'diversity' | 'pack';
  /** The call an insertion writes. */
  call: string;
  options: Record<string, Tunable>;
  /** Options a call may lack, with the value an edit that sets one starts from. */
  optional?: Record<string, string>;
  /** What the data must have for the stage to do anything: dialogue turns (speakers, sessions in time). */
  needs?: 'dialogue';
}

const int = (min: number, max: number): Tunable => ({ kind: 'int', min, max });
const float = (min: number, max: number): Tunable => ({ kind: 'float', min, max });

export const STAGES: Record<string, StageInfo> = {
  prfQuery: { phase: 0, role: 'rewrite', call: 'prfQuery({ docs: 5, terms: 6, weight: 0.5 })', options: { docs: int(1, 20), terms: int(1, 20), weight: float(0.1, 1) } },
  entityQueries: { phase: 0, role: 'rewrite', call: 'entityQueries({ weight: 0.6 })', options: { weight: float(0.1, 1.5) }, needs: 'dialogue' },
  bm25Stage: { phase: 1, role: 'search', call: 'bm25Stage({ k: 40 })', options: { k: int(5, 200) } },
  denseStage: { phase: 1, role: 'search', call: 'denseStage({ k: 40 })', options: { k: int(5, 200) } },
  rrfFuse: { phase: 2, role: 'fuse', call: 'rrfFuse({ k: 60 })', options: { k: int(1, 200) } },
  weightedFuse: { phase: 2, role: 'fuse', call: 'weightedFuse()', options: {} },
  maxFuse: { phase: 2, role: 'fuse', call: 'maxFuse()', options: {} },
  timeBoost: { phase: 3, role: 'rescore', call: 'timeBoost({ span: 1.5, when: 1.3 })', options: { span: float(1, 3), when: float(1, 3), spillDays: int(0, 90) }, needs: 'dialogue' },
  recencyBoost: { phase: 3, role: 'rescore', call: 'recencyBoost({ weight: 0.5 })', options: { weight: float(0.1, 3), when: { kind: 'enum', values: ["'asked'", "'always'"] } }, optional: { when: "'asked'" } },
  neighbourExpand: { phase: 4, role: 'expand', call: 'neighbourExpand({ before: 1, after: 1, seeds: 10, decay: 0.7 })', options: { before: int(0, 4), after: int(0, 4), seeds: int(1, 60), decay: float(0.1, 1) } },
  graphExpand: { phase: 4, role: 'expand', call: 'graphExpand({ seeds: 5, per: 3, decay: 0.5 })', options: { seeds: int(1, 30), per: int(1, 10), decay: float(0.1, 1) } },
  mmrStage: { phase: 5, role: 'diversity', call: 'mmrStage({ k: 60, lambda: 0.7 })', options: { k: int(5, 300), lambda: float(0.3, 1) } },
  dedupe: { phase: 5, role: 'diversity', call: 'dedupe({ similarity: 0.9 })', options: { similarity: float(0.5, 1) } },
  capPerSource: { phase: 5, role: 'diversity', call: 'capPerSource({ max: 4, decay: 0.75 })', options: { max: int(1, 30), decay: float(0.1, 1) } },
  packWhole: {
    phase: 6,
    role: 'pack',
    call: "packWhole({ render: 'compact', groupBy: 'time' })",
    options: { render: { kind: 'enum', values: ["'compact'", "'plain'"] }, groupBy: { kind: 'enum', values: ["'time'", "'source'", "'rank'"] }, maxUnits: int(1, 200) },
    optional: { maxUnits: '12' },
  },
};

/** Options of `new UnitStore({ ... })` the agent may change. */
export const STORE_OPTIONS: Record<string, Tunable> = {
  units: { kind: 'enum', values: ["'steps'", "'windows'", "'episodes'"] },
  window: int(1, 3),
  index: { kind: 'enum', values: ["'both'", "'bm25'", "'dense'"] },
  findBy: { kind: 'enum', values: ["'content'", "'instruction'"] },
};

/** A stage's phase: its own, or for a route the earliest of the stages it runs; unknown calls sit mid-pipeline. */
export function phaseOf(call: StageCall): number {
  const known = STAGES[call.name];
  if (known) return known.phase;
  const inner = calledNames(call.text).map((n) => STAGES[n]?.phase).filter((p): p is number => p !== undefined);
  return inner.length ? Math.min(...inner) : 3;
}

/** Where a stage of `phase` goes: before the first stage of a later phase. */
export function insertionIndex(stages: StageCall[], phase: number): number {
  const i = stages.findIndex((s) => phaseOf(s) > phase);
  return i < 0 ? stages.length : i;
}
