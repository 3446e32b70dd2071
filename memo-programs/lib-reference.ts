// The signatures and one-line docs of every automemo/lib helper, for the meta agent's prompts, with each pipeline
// stage's contract (the state fields it reads and writes, hit order, id formats). Generated from the helpers' own
// declarations (TypeScript's declaration emit: inferred return types included, bodies dropped), so
// the prompt can never drift from the code a program actually imports.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { typescript } from '../foundation/typescript.ts';
import { libDir } from '../foundation/paths.ts';
import { STAGE_DECLARATIONS, STORE_OPTIONS } from './lib/pipeline.ts';
import type { Tunable } from './lib/tunables.ts';

// Through require (foundation/typescript.ts): Node's ESM import scans TypeScript's 9 MB for its exports first.
const ts = typescript();

let cached: { key: string; text: string } | undefined;

/** The lib's files that a program may import, index first excluded (it only re-exports). */
function helperFiles(): string[] {
  return readdirSync(libDir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => join(libDir, f));
}

/** The JSDoc tags a stage's contract is stated in: the state fields it reads and writes, hit order, id formats. */
export const CONTRACT_TAGS = ['reads', 'writes', 'order', 'ids'] as const;

/**
 * A JSDoc block reduced to its first sentence on one line, and its contract tags (one line each, as
 * `reads: …`); other tags and comments dropped.
 */
function oneLineDocs(dts: string): string {
  return dts
    .replace(/\/\*\*([\s\S]*?)\*\//g, (_, body: string) => {
      const lines = body.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim());
      const tagAt = lines.findIndex((l) => l.startsWith('@'));
      const text = (tagAt < 0 ? lines : lines.slice(0, tagAt)).filter(Boolean).join(' ');
      const first = text.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? text;
      const tags = (tagAt < 0 ? [] : lines.slice(tagAt))
        .join('\n')
        .split(/\n(?=@)/)
        .flatMap((t) => {
          const m = /^@(\w+)\s+([\s\S]*)$/.exec(t);
          return m && (CONTRACT_TAGS as readonly string[]).includes(m[1] as string) ? [`${m[1]}: ${(m[2] as string).replace(/\s+/g, ' ').trim()}`] : [];
        });
      if (!first && !tags.length) return '';
      return tags.length ? `/** ${first}\n * ${tags.join('\n * ')} */` : `/** ${first} */`;
    })
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/^import .*$/gm, '')
    // A type another helper module declares is named as that module declares it (every module is shown): the emit's
    // import("./x.ts"). qualifier only lengthens the prompt.
    .replace(/\bimport\("\.\/[\w-]+\.ts"\)\./g, '')
    // Private members are not a program's to use: the emit lists them (with their docs) without their types.
    .replace(/^[ \t]*(?:\/\*\*[^\n]*\*\/\n[ \t]*)?private [^\n]*;$/gm, '')
    .replace(/^export \{\};?$/gm, '')
    // Every declaration here is an export (the prompt says so): the keywords and the emit's 4-space indent are dropped.
    .replace(/^export (declare )?/gm, '')
    .replace(/^((?: {4})+)/gm, (m) => '  '.repeat(m.length / 4))
    .replace(/\n{2,}/g, '\n')
    .trim();
}

const num = (x: number) => (x === Infinity ? 'unset' : String(Number.isInteger(x) ? x : Number(x.toFixed(3))));

/** One option as the reference shows it: `k: int 40 [1–1000], search 5–200`. */
function tunableLine(name: string, t: Tunable): string {
  const fixed = t.fixed ? ' (fixed: reproduces a design, not searched)' : '';
  if (t.kind === 'bool') return `${name}: boolean ${t.default}${fixed}`;
  if (t.kind === 'enum') return `${name}: ${t.values.map((v) => `'${v}'`).join(' | ')}, default '${t.default}'${fixed}`;
  const range = `${name}: ${t.kind} ${num(t.default)} [${num(t.min)}–${num(t.max)}]`;
  return t.fixed ? `${range}${fixed}` : `${range}, search ${num(t.search[0])}–${num(t.search[1])}`;
}

/**
 * The tunables of the unit store and of every stage, from their declarations (automemo/lib/tunables.ts): default,
 * bounds a value is clamped to, and the range a search tries.
 */
export function tunablesReference(): string {
  const lines = ['// Tunables, declared beside each stage (default, [bounds values are clamped to], the range a search tries)'];
  lines.push(`new UnitStore({ ... }): ${Object.entries(STORE_OPTIONS).map(([k, t]) => tunableLine(k, t)).join('; ')}; entityMeta: the meta field an entity is read from (with entity 'meta')`);
  for (const d of STAGE_DECLARATIONS) {
    const options = Object.entries(d.options).map(([k, t]) => tunableLine(k, t));
    lines.push(`${d.name} (${d.role}${d.needs ? `, needs ${d.needs}` : ''}): ${d.summary}${options.length ? `; ${options.join('; ')}` : ''}`);
  }
  return lines.join('\n');
}

/** Every helper module as `// automemo/lib/<name>` followed by its declarations, then the tunables of every stage. */
export function libReference(): string {
  const files = helperFiles();
  const key = files.map((f) => `${f}:${statSync(f).mtimeMs}`).join('|');
  if (cached?.key === key) return cached.text;
  const out = new Map<string, string>();
  const program = ts.createProgram(files, {
    declaration: true,
    emitDeclarationOnly: true,
    removeComments: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    strict: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
  });
  program.emit(undefined, (name, text) => {
    out.set(name.replace(/\.d\.ts$/, '.ts'), text);
  });
  const text = files
    .map((f) => {
      const name = f.slice(libDir.length + 1, -3);
      const dts = out.get(f);
      return dts ? `// automemo/lib/${name}\n${oneLineDocs(dts)}` : `// automemo/lib/${name} (its declarations could not be generated)`;
    })
    .join('\n\n');
  const all = `${text}\n\n${tunablesReference()}`;
  cached = { key, text: all };
  return all;
}
