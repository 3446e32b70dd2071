// What a meta prompt shows of automemo/lib, generated from the helpers' declarations (lib-declarations.ts) so the
// prompt can never drift from the code a program imports. Two parts, so a provider's prefix cache can serve the
// large one: `libIndex()` — every module's exports, each function as its name, parameters and first sentence, and
// every stage as one line with its role, purpose and tunables — the same in every prompt of a run; and
// `libDetails(keys)` — the declarations a program uses, in full (signatures, docs, each stage's contract: the state
// fields it reads and writes, hit order, id formats), with the declarations their signatures name. `libReference()`
// is every declaration in full and the stage list (a program written from nothing, the contract tests).
import { type DeclarationKey, type LibDeclaration, libModel } from './lib-declarations.ts';
import { STAGE_DECLARATIONS, STORE_OPTIONS } from './lib/pipeline.ts';
import type { Tunable } from './lib/tunables.ts';

export { CONTRACT_TAGS } from './lib-declarations.ts';

const num = (x: number) => (x === Infinity ? 'unset' : String(Number.isInteger(x) ? x : Number(x.toFixed(3))));

/** One option as the reference shows it: `k: int 40 [1–1000], search 5–200`. */
function tunableLine(name: string, t: Tunable): string {
  const fixed = t.fixed ? ' (fixed)' : '';
  if (t.kind === 'bool') return `${name}: boolean ${t.default}${fixed}`;
  if (t.kind === 'enum') return `${name}: ${t.values.map((v) => `'${v}'`).join(' | ')}, default '${t.default}'${fixed}`;
  const range = `${name}: ${t.kind} ${num(t.default)} [${num(t.min)}–${num(t.max)}]`;
  return t.fixed ? `${range}${fixed}` : `${range}, search ${num(t.search[0])}–${num(t.search[1])}`;
}

/**
 * The unit store's options and every stage, one line each, from their declarations (automemo/lib/tunables.ts):
 * role, what it does, and each option's default, bounds a value is clamped to, and the range a search tries.
 */
export function tunablesReference(): string {
  const lines = [
    '// Stages and their tunables, declared beside each stage: default, [bounds values are clamped to], the range a search',
    '// tries; (fixed): a setting that reproduces a design, not searched',
  ];
  lines.push(
    `new UnitStore({ ... }): ${Object.entries(STORE_OPTIONS)
      .map(([k, t]) => tunableLine(k, t))
      .join('; ')}; entityMeta: the meta field an entity is read from (with entity 'meta')`,
  );
  for (const d of STAGE_DECLARATIONS) {
    const options = Object.entries(d.options).map(([k, t]) => tunableLine(k, t));
    lines.push(
      `${d.name} (${d.role}${d.needs ? `, needs ${d.needs}` : ''}): ${d.summary}${options.length ? `; ${options.join('; ')}` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * The modules in the order their declarations are shown in full: those whose declarations other modules' signatures
 * name most (RetrievalState, UnitStore) first, then the rest in name order. Programs built on the same foundation
 * then show the same text first, and a provider's prefix cache serves it once.
 */
function detailOrder(): string[] {
  const { modules, declarations } = libModel();
  const named = new Map<string, number>();
  for (const d of declarations.values())
    for (const r of d.refs) {
      const m = r.slice(0, r.indexOf(':'));
      if (m !== d.module) named.set(m, (named.get(m) ?? 0) + 1);
    }
  return [...modules].sort((a, b) => (named.get(b) ?? 0) - (named.get(a) ?? 0) || a.localeCompare(b));
}

/** The given declarations in full, under their modules (foundation first), each module's in its order. */
export function libDetails(keys: Iterable<DeclarationKey>): string {
  const { declarations } = libModel();
  const wanted = new Set(keys);
  return detailOrder()
    .map((m) => {
      const ds = [...declarations.values()].filter((d) => d.module === m && wanted.has(d.key));
      return ds.length ? `// automemo/lib/${m}\n${ds.map((d) => d.text).join('\n')}` : '';
    })
    .filter(Boolean)
    .join('\n\n');
}

/** Every declaration's key. */
export function allLibDeclarations(): DeclarationKey[] {
  return [...libModel().declarations.keys()];
}

/** Every helper module in full, then the stages' one-line list with their tunables. */
export function libReference(): string {
  return `${libDetails(allLibDeclarations())}\n\n${tunablesReference()}`;
}

/** One declaration on one line: a function as `name(params) — first sentence`, a class with its members. */
function indexEntry(d: LibDeclaration): string {
  const about = d.summary ? ` — ${d.summary}` : '';
  if (d.kind === 'function') return `${d.name}(${d.params.join(', ')})${about}`;
  if (d.kind === 'class') return `class ${d.name}${about} Members: ${d.members.join(', ')}.`;
  return `${d.name}${about}`;
}

/**
 * Every module on a few lines — its functions and classes one a line, its types and constants by name, its stages by
 * name — then every stage on one line with its tunables. The same text in every prompt: what a program may import.
 */
export function libIndex(): string {
  const { modules, declarations } = libModel();
  const all = [...declarations.values()];
  const parts = modules.map((m) => {
    const ds = all.filter((d) => d.module === m && !d.stageDeclaration);
    const lines = ds.filter((d) => !d.stage && (d.kind === 'function' || d.kind === 'class')).map(indexEntry);
    const types = ds.filter((d) => d.kind === 'interface' || d.kind === 'type' || d.kind === 'enum').map((d) => d.name);
    const consts = ds.filter((d) => d.kind === 'const').map((d) => d.name);
    const stages = ds.filter((d) => d.stage).map((d) => d.name);
    const tail = [
      types.length ? `types: ${types.join(', ')}` : '',
      consts.length ? `constants: ${consts.join(', ')}` : '',
      stages.length ? `stages: ${stages.join(', ')}` : '',
    ].filter(Boolean);
    return [`// automemo/lib/${m}${tail.length ? ` — ${tail.join('; ')}` : ''}`, ...lines].join('\n');
  });
  return `${parts.join('\n')}\n\n${tunablesReference()}`;
}
