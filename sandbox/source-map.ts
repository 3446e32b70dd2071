// Maps positions in the isolate's bundle back to the program's TypeScript files.
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { resolve } from 'node:path';
import { BUNDLE_FILENAME, type CompiledProgram, displayPath } from './compile.ts';
import { isInside, nodeModulesDir } from '../foundation/paths.ts';

const maps = new Map<string, TraceMap>();

function traceMap(program: CompiledProgram): TraceMap {
  let m = maps.get(program.hash);
  if (!m) {
    m = new TraceMap(program.map);
    maps.set(program.hash, m);
    if (maps.size > 256) maps.delete(maps.keys().next().value as string);
  }
  return m;
}

export interface MappedStack {
  /** The stack with bundle positions replaced by file:line:col of the original sources. */
  stack: string;
  /** First frame in the program's own files, e.g. "index.ts:12:7". */
  location?: string;
}

const FRAME = new RegExp(`${BUNDLE_FILENAME.replace('.', '\\.')}:(\\d+):(\\d+)`, 'g');

export function mapStack(stack: string, program: CompiledProgram): MappedStack {
  const map = traceMap(program);
  let location: string | undefined;
  let fallback: string | undefined;
  const mapped = stack.replace(FRAME, (whole, l: string, c: string) => {
    const pos = originalPositionFor(map, { line: Number(l), column: Number(c) - 1 });
    if (!pos.source || pos.line === null) return whole;
    const abs = resolve(program.rootDir, pos.source);
    const where = `${displayPath(abs, program.rootDir)}:${pos.line}:${(pos.column ?? 0) + 1}`;
    const own = isInside(abs, program.rootDir) && !isInside(abs, nodeModulesDir);
    if (own && !location) location = where;
    fallback ??= where;
    return where;
  });
  const result: MappedStack = { stack: mapped };
  const loc = location ?? fallback;
  if (loc) result.location = loc;
  return result;
}
