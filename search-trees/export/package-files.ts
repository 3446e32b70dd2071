// The files of an exported package besides its bundle and memory: package.json (with the run, node and scores
// under "automemo"), README.md and index.d.ts from templates, and the program (its TypeScript and the bundle the
// sandbox runs).
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillPrompt, readPrompt } from '../../engine/llm/prompt-file.ts';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import type { PackageInfo } from './runtime/package-info.ts';

export interface PackageJsonInput {
  name: string;
  info: PackageInfo;
  dependencies: Record<string, string>;
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
    ...(p.bundled.length ? { bundleDependencies: p.bundled } : {}),
    license: 'MIT',
    automemo: p.info,
  };
}

const fmt = (x: number | null) => (x === null ? 'none' : x.toFixed(3));

export function writeTextFiles(outDir: string, pkg: Record<string, unknown>, values: Record<string, string | number>, withMcp: boolean): void {
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const native = fillPrompt(readPrompt(import.meta.url, values.nativeBundled ? './templates/native-bundle.md' : './templates/native-source.md'), values);
  let readme = fillPrompt(readPrompt(import.meta.url, './templates/README.md'), { ...values, nativeNote: native });
  if (withMcp) readme += `\n${fillPrompt(readPrompt(import.meta.url, './templates/README-mcp.md'), values)}`;
  writeFileSync(join(outDir, 'README.md'), `${readme}\n`);
  copyFileSync(new URL('./templates/index.d.ts', import.meta.url), join(outDir, 'index.d.ts'));
}

/** The program's TypeScript (program/) and the compiled bundle the sandbox loads (dist/program.js + map). */
export function writeProgram(outDir: string, programDir: string, program: CompiledProgram): string[] {
  const target = join(outDir, 'program');
  mkdirSync(target, { recursive: true });
  const files = readdirSync(programDir).filter((f) => f.endsWith('.ts'));
  for (const f of files) copyFileSync(join(programDir, f), join(target, f));
  mkdirSync(join(outDir, 'dist'), { recursive: true });
  writeFileSync(join(outDir, 'dist', 'program.js'), program.code);
  writeFileSync(join(outDir, 'dist', 'program.js.map'), program.map);
  return files.sort();
}
