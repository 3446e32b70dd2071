// The files of an exported package besides its bundle and memory: package.json (with the run, node and scores
// under "automemo"), README.md and index.d.ts from templates, and the program (its TypeScript and the bundle the
// sandbox runs).
// Every value put into README.md is escaped for where it lands (markdown.ts): a run folder, a node's description
// and model names are text, never HTML or Markdown the reader's renderer would act on.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPrompt } from '../../engine/llm/prompt-file.ts';
import { isSafeName, writeInside } from '../../foundation/safe-path.ts';
import type { CompiledProgram } from '../../sandbox/compile.ts';
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
  writeInside(outDir, 'index.d.ts', readFileSync(new URL('./templates/index.d.ts', import.meta.url), 'utf8'));
}

/**
 * The program's TypeScript (program/) and the compiled bundle the sandbox loads (dist/program.js + map). Only plain
 * .ts files with safe names are copied: a link in the run's program folder could point at any file on the machine.
 */
export function writeProgram(outDir: string, programDir: string, program: CompiledProgram): string[] {
  const files = readdirSync(programDir).filter((f) => f.endsWith('.ts') && isSafeName(f) && lstatSync(join(programDir, f)).isFile());
  for (const f of files) writeInside(outDir, join('program', f), readFileSync(join(programDir, f)));
  writeInside(outDir, 'dist/program.js', program.code);
  writeInside(outDir, 'dist/program.js.map', program.map);
  return files.sort();
}
