#!/usr/bin/env node
// Import circles in automemo's layered folders (LAYERS in eslint.config.js): files that import each other, directly
// or through others. Every relative import counts — `import type`, re-exports, import() and import('…') types too —
// since a circle of types still ties the files' ideas together. Prints one loop per circle and exits 1 when there is
// one (`npm run lint` runs it after eslint, which checks that imports point down the layers).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|mts|js|mjs)$/;

function sourceFiles(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The files `file` imports by relative path (as written, or with .ts / index.ts added). */
function importsOf(file) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter((f) => f.fileName.startsWith('.'))
    .map((f) => resolve(dirname(file), f.fileName))
    .map((p) => [p, `${p}.ts`, join(p, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile()))
    .filter((p) => p !== undefined);
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || graph.get(v).includes(v)) out.push(scc);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** One loop through a circle, from its first file back to it (breadth first, so the shortest). */
function loopThrough(graph, scc) {
  const members = new Set(scc);
  const start = [...scc].sort()[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = cameFrom.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** Each import circle among the source files under `folders` of `root`, as a loop of paths relative to root. */
export function importCycles(root, folders) {
  const files = folders.flatMap((f) => sourceFiles(join(root, f)));
  const inGraph = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => inGraph.has(t))]));
  return circles(graph).map((scc) => loopThrough(graph, scc).map((f) => relative(root, f)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { LAYERS } = await import('../eslint.config.js');
  const found = importCycles(root, LAYERS.flat());
  for (const loop of found) console.error(`import circle: ${loop.join(' → ')}`);
  if (found.length) {
    console.error(
      `${found.length} import circle${found.length === 1 ? '' : 's'}: move what the files share into a file of its own`,
    );
    process.exit(1);
  }
}
