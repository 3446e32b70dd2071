// What the offline agent knows about each stage of automemo/lib/pipeline, read from the lib's own declarations
// (memo-programs/lib/tunables.ts: STAGE_DECLARATIONS, STORE_OPTIONS), never restated here: where a stage goes (its
// role's place in ROLE_ORDER), what the data must hold for it to do anything, the call an insertion writes (the
// stage with its declared defaults), and the options a search may vary with their ranges (fixed ones left alone).
import { ROLE_ORDER, STAGE_DECLARATIONS, STORE_OPTIONS as LIB_STORE_OPTIONS } from '../../../memo-programs/lib/pipeline.ts';
import type { StageDeclaration, StageRole, Tunable } from '../../../memo-programs/lib/tunables.ts';
import { calledNames, type StageCall } from './stage-edit.ts';

export type { Tunable };

export interface StageInfo {
  name: string;
  role: StageRole;
  /** Its role's place in a pipeline (ROLE_ORDER). */
  phase: number;
  /** The call an insertion writes: the stage with its declared defaults. */
  call: string;
  /** Options a search may vary (the declaration's, fixed ones left out). */
  options: Record<string, Tunable>;
  needs?: StageDeclaration['needs'];
}

/** An option's value as source text. */
export function literal(value: number | string | boolean): string {
  return typeof value === 'string' ? `'${value.replace(/['\\]/g, '')}'` : String(value);
}

const searchable = (options: Record<string, Tunable>) => Object.fromEntries(Object.entries(options).filter(([, t]) => !t.fixed));

export const STAGES: Record<string, StageInfo> = Object.fromEntries(
  STAGE_DECLARATIONS.map((d) => [
    d.name,
    { name: d.name, role: d.role, phase: ROLE_ORDER.indexOf(d.role), call: `${d.name}()`, options: searchable(d.options), ...(d.needs ? { needs: d.needs } : {}) },
  ]),
);

/** Options of `new UnitStore({ ... })` a search may vary, as the lib declares them. */
export const STORE_OPTIONS: Record<string, Tunable> = searchable(LIB_STORE_OPTIONS as Record<string, Tunable>);

/** An option's declared default as source text, when it has a finite one. */
export function defaultText(t: Tunable): string | undefined {
  if (t.kind === 'int' || t.kind === 'float') return Number.isFinite(t.default) ? String(t.default) : undefined;
  return literal(t.default);
}

/** What the store runs with for an option a program does not set. */
export function storeDefault(key: string): string | undefined {
  const t = (LIB_STORE_OPTIONS as Record<string, Tunable>)[key];
  return t ? defaultText(t) : undefined;
}

/** A stage's phase: its role's; for a route the earliest of the stages it runs; unknown calls sit mid-pipeline. */
export function phaseOf(call: StageCall): number {
  const known = STAGES[call.name];
  if (known) return known.phase;
  const inner = calledNames(call.text).map((n) => STAGES[n]?.phase).filter((p): p is number => p !== undefined);
  return inner.length ? Math.min(...inner) : ROLE_ORDER.indexOf('rescore');
}

/** Where a stage of `phase` goes: before the first stage of a later phase. */
export function insertionIndex(stages: StageCall[], phase: number): number {
  const i = stages.findIndex((s) => phaseOf(s) > phase);
  return i < 0 ? stages.length : i;
}
