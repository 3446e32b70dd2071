// The prelude as the script each isolate runs first: transpiled from prelude.ts on first use and kept. An exported
// package carries no TypeScript or esbuild; its bundler replaces this module with the transpiled text
// (export/bundle.ts).
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

let script: string | undefined;

export function preludeScript(): string {
  // Wrapped in an IIFE so none of its bindings are visible to programs.
  script ??= esbuild.transformSync(readFileSync(new URL('./prelude.ts', import.meta.url), 'utf8'), {
    loader: 'ts',
    format: 'iife',
    target: 'es2022',
  }).code;
  return script;
}
