// What a stage (or the unit store) may be tuned by, declared once beside it: each option's default, the bounds a value
// is clamped to, and the range worth searching. The stage resolves its options through its declaration, so the
// default it runs with and the range a search explores can never disagree; a systematic parameter search reads the
// same declarations (pipeline.ts lists them all).

/**
 * A whole number: `min`–`max` are hard bounds (values are clamped and rounded); `search` is the range worth trying.
 * `fixed`: a setting that reproduces a design as it is (a tie order, a quirk), not one a search should vary.
 */
export interface IntTunable {
  kind: 'int';
  fixed?: boolean;
  default: number;
  min: number;
  max: number;
  search: readonly [number, number];
}

/** A number: hard bounds and a search range, as for whole numbers. */
export interface FloatTunable {
  kind: 'float';
  fixed?: boolean;
  default: number;
  min: number;
  max: number;
  search: readonly [number, number];
}

/** One of a few named values; an unknown value falls back to the default. */
export interface EnumTunable<V extends string = string> {
  kind: 'enum';
  fixed?: boolean;
  default: V;
  values: readonly V[];
}

export interface BoolTunable {
  kind: 'bool';
  fixed?: boolean;
  default: boolean;
}

export type Tunable = IntTunable | FloatTunable | EnumTunable | BoolTunable;

/** The same option, marked as a fidelity setting a search leaves alone. */
export function fixed<T extends Tunable>(t: T): T {
  return { ...t, fixed: true };
}

/** A whole-number option: its default, hard bounds [min, max], and the range a search tries (default: the bounds). */
export function int(value: number, bounds: readonly [number, number], search: readonly [number, number] = bounds): IntTunable {
  return { kind: 'int', default: value, min: bounds[0], max: bounds[1], search };
}

export function float(value: number, bounds: readonly [number, number], search: readonly [number, number] = bounds): FloatTunable {
  return { kind: 'float', default: value, min: bounds[0], max: bounds[1], search };
}

export function choice<const V extends string>(value: NoInfer<V>, values: readonly V[]): EnumTunable<V> {
  return { kind: 'enum', default: value, values };
}

export function flag(value: boolean): BoolTunable {
  return { kind: 'bool', default: value };
}

/** The value type an option resolves to. */
export type ValueOf<T extends Tunable> = T extends EnumTunable<infer V> ? V : T extends BoolTunable ? boolean : number;

/** Options as a caller may give them: any subset. */
export type GivenOptions<O extends Record<string, Tunable>> = { [K in keyof O]?: ValueOf<O[K]> };
/** Options as a stage runs with them: every one set, within bounds. */
export type ResolvedOptions<O extends Record<string, Tunable>> = { [K in keyof O]: ValueOf<O[K]> };

/** Where a stage goes in a pipeline (the order of roles), and what it does. */
export type StageRole = 'rewrite' | 'select' | 'search' | 'fuse' | 'rescore' | 'expand' | 'diversity' | 'preamble' | 'pack';

/** The roles in pipeline order. */
export const ROLE_ORDER: readonly StageRole[] = ['rewrite', 'select', 'search', 'fuse', 'rescore', 'expand', 'diversity', 'preamble', 'pack'];

export interface StageDeclaration<O extends Record<string, Tunable> = Record<string, Tunable>> {
  /** The stage function's name (what `stageName` and a program's call say). */
  name: string;
  role: StageRole;
  /** One line: what it does. */
  summary: string;
  options: O;
  /** What the memory must hold for the stage to do anything. */
  needs?: 'dialogue' | 'choices' | 'entities' | 'notes' | 'episode-index' | 'insights';
}

/** A declaration with its resolver: `resolve(given)` is every option set, clamped and defaulted. */
export interface DeclaredStage<O extends Record<string, Tunable>> extends StageDeclaration<O> {
  resolve(given?: GivenOptions<O>): ResolvedOptions<O>;
}

/** One option's value: the given one within bounds, else the default. */
export function resolveOne(t: Tunable, given: unknown): number | string | boolean {
  if (t.kind === 'bool') return typeof given === 'boolean' ? given : t.default;
  if (t.kind === 'enum') return typeof given === 'string' && t.values.includes(given) ? given : t.default;
  if (typeof given !== 'number' || Number.isNaN(given)) return t.default;
  const v = Math.max(t.min, Math.min(t.max, given));
  return t.kind === 'int' && Number.isFinite(v) ? Math.round(v) : v;
}

export function resolveOptions<O extends Record<string, Tunable>>(options: O, given: GivenOptions<O> = {}): ResolvedOptions<O> {
  const out: Record<string, number | string | boolean> = {};
  for (const [key, t] of Object.entries(options)) out[key] = resolveOne(t, (given as Record<string, unknown>)[key]);
  return out as ResolvedOptions<O>;
}

export function declareStage<O extends Record<string, Tunable>>(declaration: StageDeclaration<O>): DeclaredStage<O> {
  return { ...declaration, resolve: (given) => resolveOptions(declaration.options, given) };
}
