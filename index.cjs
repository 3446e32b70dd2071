// automemo from CommonJS (require, or TypeScript that tsx compiles to CommonJS under a package.json without
// "type": "module"). automemo is an ES module that loads its TypeScript through tsx and awaits at its top level,
// which require() cannot load on Node 20: say what works instead of esbuild's "Top-level await is currently not
// supported with the cjs output format", which names automemo's own file.
'use strict';

throw new Error(
  "automemo is an ES module and cannot be loaded with require(): import it from an ES module file — name yours .mts " +
    '(TypeScript, run with node --no-node-snapshot --import tsx file.mts) or .mjs, or set "type": "module" in your ' +
    "package.json — or, from CommonJS, load it inside an async function: const { search } = await import('automemo')",
);
