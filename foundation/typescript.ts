// TypeScript's compiler, loaded on first use. Importing it costs a process about 0.8 s (a 9 MB CommonJS file that
// Node's ESM loader also scans for its exports), and worker processes that only evaluate compiled programs never
// need it. require() loads it without the scan.
import { createRequire } from 'node:module';
import type TS from 'typescript';

let loaded: typeof TS | undefined;

export function typescript(): typeof TS {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TS;
  return loaded;
}
