// The files of an exported package besides its bundle and memory: package.json (with the run, node and scores
// under "automemo"), README.md from templates, index.d.ts (generated/, emitted from the runtime by declarations.ts),
// and the program (its TypeScript and the bundle the sandbox runs).
// Every value put into README.md is escaped for where it lands (markdown.ts): a run folder, a node's description
// and model names are text, never HTML or Markdown the reader's renderer would act on.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { readPrompt } from '../foundation/llm/prompt-file.ts';
import { isSafeName, writeInside } from '../foundation/safe-path.ts';
import type { CompiledProgram } from '../sandbox/compile.ts';
import { isInside, repoRoot } from '../foundation/paths.ts';
import { fillMarkdown } from './markdown.ts';
import type { PackageInfo } from './runtime/package-info.ts';

export interface PackageJsonInput {
  name: string;
  info: PackageInfo;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  bundled: string[];
  bin?: string;
}

export function packageJson(p: PackageJsonInput): Record<string, unknown> {
  return {
    name: p.name,
    version: '1.0.0',
    description: `Agent memory ${p.info.node.id} selected by automemo on ${p.info.run.env} (validation ${fmt(p.info.scores.validation)}, LCB ${fmt(p.info.scores.lcb)})`,
    type: 'module',
    main: './dist/index.js',
    types: './index.d.ts',
    exports: { '.': { types: './index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    ...(p.bin ? { bin: { [p.bin]: 'dist/mcp.js' } } : {}),
    files: ['dist', 'program', 'memory', 'index.d.ts', 'README.md'],
    engines: { node: '>=20.0.0 <21' },
    dependencies: p.dependencies,
    ...(Object.keys(p.optionalDependencies).length ? { optionalDependencies: p.optionalDependencies } : {}),
    ...(p.bundled.length ? { bundleDependencies: p.bundled } : {}),
    license: 'MIT',
    automemo: p.info,
  };
}

const fmt = (x: number | null) => (x === null ? 'none' : x.toFixed(3));

export function writeTextFiles(outDir: string, pkg: Record<string, unknown>, values: Record<string, string | number>, withMcp: boolean): void {
  writeInside(outDir, 'package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  const nativeParts = values.nativeBundled ? ['native-bundle.md', ...(values.onnxBundled ? ['onnx-bundle.md'] : [])] : ['native-source.md'];
  const native = nativeParts.map((f) => fillMarkdown(readPrompt(import.meta.url, `./templates/${f}`), values).trim()).join('\n\n');
  let readme = fillMarkdown(readPrompt(import.meta.url, './templates/README.md'), { ...values, nativeNote: native }, new Set(['nativeNote']));
  if (withMcp) readme += `\n${fillMarkdown(readPrompt(import.meta.url, './templates/README-mcp.md'), values)}`;
  writeInside(outDir, 'README.md', `${readme}\n`);
  // index.d.ts takes no values: it is the same for every package.
  writeInside(outDir, 'index.d.ts', readFileSync(new URL('./generated/index.d.ts', import.meta.url), 'utf8'));
}

/**
 * The program's TypeScript (program/) and the compiled bundle the sandbox loads (dist/program.js + map). Only plain
 * .ts files with safe names are copied: a link in the run's program folder could point at any file on the machine.
 */
export function writeProgram(outDir: string, programDir: string, program: CompiledProgram): string[] {
  const files = readdirSync(programDir).filter((f) => f.endsWith('.ts') && isSafeName(f) && lstatSync(join(programDir, f)).isFile());
  for (const f of files) writeInside(outDir, join('program', f), readFileSync(join(programDir, f)));
  // esbuild names each input by its path from the folder it ran in: the machine's layout, not the package's.
  const shown = (path: string, from: string) => {
    const full = resolve(from, path);
    if (isInside(full, programDir)) return `program/${relative(programDir, full)}`;
    if (isInside(full, repoRoot)) return `automemo/${relative(repoRoot, full)}`;
    return basename(full);
  };
  const code = program.code.replace(/^([ \t]*)\/\/ (\S+\.[cm]?[jt]sx?)$/gm, (_, indent: string, path: string) => `${indent}// ${shown(path, process.cwd())}`);
  writeInside(outDir, 'dist/program.js', code);
  writeInside(outDir, 'dist/program.js.map', relativeSources(program.map, (p) => shown(p, programDir)));
  return files.sort();
}

/** A source map with its sources renamed (a map that is not one is kept as it is). */
function relativeSources(map: string, rename: (source: string) => string): string {
  try {
    const parsed = JSON.parse(map) as { sources?: unknown };
    if (!Array.isArray(parsed.sources)) return map;
    return JSON.stringify({ ...parsed, sources: parsed.sources.map((s) => (typeof s === 'string' ? rename(s) : s)) });
  } catch {
    return map;
  }
}
