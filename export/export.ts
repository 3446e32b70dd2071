// Export of one program of a run as a package: as an npm library (createMemory) or, with `mcp`, also as an MCP
// server. The package runs the program in automemo's sandbox (bundled into dist/), starts from the memory the
// program built from the run's update episodes (memory/), and records where it came from (package.json).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resolveModels } from '../foundation/llm/models.ts';
import { compileProgram, formatIssue } from '../sandbox/compile.ts';
import { DEFAULT_LIMITS } from '../sandbox/isolate.ts';
import { repoRoot } from '../foundation/paths.ts';
import { EMBED_BACKENDS } from '../sandbox/primitives/embed-backend.ts';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { type BuiltMemory, buildMemory, type RunEnvOpener } from './build-memory.ts';
import { bundleRuntime, MCP_PACKAGES, OPTIONAL_WORKER_PACKAGES, RUNTIME_PACKAGES, WORKER_PACKAGES } from './bundle.ts';
import { UsageError } from '../foundation/usage-error.ts';
import { bundleNative, installedVersion, type NativeMode, NATIVE_PACKAGES, nativeTarget } from './native.ts';
import { packageJson, writeProgram, writeTextFiles } from './package-files.ts';
import { EXPORT_FORMAT, type PackageInfo } from './runtime/package-info.ts';
import { selectNode } from './select.ts';
import { envId, envLabel } from './env-label.ts';
import { seedsOf } from '../engine/search/run-options.ts';

export type ExportFormat = 'npm' | 'mcp';

export interface ExportOptions {
  run: string;
  /** A node id; default: the run's final winner, or the LCB argmax. */
  node?: string;
  out: string;
  format: ExportFormat;
  native?: NativeMode;
  /** npm package name (default automemo-memory-<env>-<node>). */
  name?: string;
  /** Opens the run's environment (the registry lives above this layer). */
  openEnv: RunEnvOpener;
  onNote?: (message: string) => void;
}

export interface ExportResult {
  out: string;
  name: string;
  info: PackageInfo;
  memory: BuiltMemory;
  bin?: string;
  timings: { compileMs: number; memoryMs: number; bundleMs: number; totalMs: number };
}

/**
 * A valid npm name from parts like "visual:charts" and "seed-omni-simplemem"; an MCP server's ends in "-mcp", so the
 * npm and the MCP export of one node never share a name (installing one would silently replace the other).
 */
export function packageName(env: string, node: string, format: ExportFormat = 'npm'): string {
  const base = `automemo-memory-${env}-${node}`.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/-+/g, '-').slice(0, 200);
  return format === 'mcp' ? `${base}-mcp` : base;
}

function checkOut(out: string): void {
  if (existsSync(out) && readdirSync(out).length > 0) throw new UsageError(`${out} exists and is not empty; choose another --out or empty it`);
}

/** An npm package name (scoped or not): it lands in package.json, the README and the MCP server's command. */
export const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

export async function exportProgram(o: ExportOptions): Promise<ExportResult> {
  const started = performance.now();
  if (o.name !== undefined && (!NPM_NAME.test(o.name) || o.name.length > 214)) throw new UsageError(`"${o.name.slice(0, 100)}" is not a valid npm package name (lowercase letters, digits, . _ -)`);
  const selected = selectNode(o.run, o.node);
  checkOut(o.out);
  const { folder, run, node, programDir } = selected;
  if (!existsSync(join(programDir, 'index.ts'))) throw new Error(`program of node ${node.id} is missing: ${programDir} has no index.ts`);
  const compiled = await compileProgram({ entryPath: join(programDir, 'index.ts') });
  if (!compiled.ok) throw new Error(`program of node ${node.id} does not compile: ${compiled.issues.map(formatIssue).join('; ')}`);
  const program = compiled.program;
  if (program.hash !== node.hash) o.onNote?.(`the program of ${node.id} changed since the run (hash ${program.hash.slice(0, 12)}, journal ${node.hash.slice(0, 12)}); exporting it as it is now`);
  const compileMs = Math.round(compiled.program.ms);

  const createdOut = !existsSync(o.out);
  mkdirSync(o.out, { recursive: true });
  try {
    const t0 = performance.now();
    const memory = await buildMemory(program, node.id, run, resolveModels(), join(o.out, 'memory'), o.openEnv);
    const memoryMs = Math.round(performance.now() - t0);
    const t1 = performance.now();
    const withMcp = o.format === 'mcp';
    const bundle = await bundleRuntime(o.out, withMcp);
    const files = writeProgram(o.out, programDir, program);
    const native = o.native ?? 'bundle';
    // The package runs the embedding engine its memory was embedded with (another one would rebuild it by replay).
    const onnxRuntime = memory.embedderId === EMBED_BACKENDS.onnx.id || memory.embedderId === EMBED_BACKENDS['onnx-int8'].id;
    const bundled = native === 'bundle' ? bundleNative(o.out, { onnxRuntime }) : [];
    const bundleMs = Math.round(performance.now() - t1);

    const deps = [...RUNTIME_PACKAGES, ...WORKER_PACKAGES, ...(withMcp ? MCP_PACKAGES : []), ...bundled.filter((p) => !NATIVE_PACKAGES.includes(p))];
    const missing = bundle.imports.filter((p) => !deps.includes(p));
    if (missing.length) throw new Error(`the bundle imports ${missing.join(', ')}, which the package would not depend on`);
    const dependencies = Object.fromEntries([...new Set(deps)].sort().map((p) => [p, installedVersion(p)]));
    // Where it is not bundled, ONNX Runtime stays optional: from source on any platform, or not at all for a memory
    // embedded on TF.js or by a model.
    const optionalDependencies = native === 'source' ? Object.fromEntries(OPTIONAL_WORKER_PACKAGES.map((p) => [p, installedVersion(p)])) : {};
    const name = o.name ?? packageName(envId(run), node.id, o.format);
    const env = envLabel(run);
    // The server's command: the package's own name when it already ends in -mcp (npx <name> runs it).
    const bin = withMcp ? (name.endsWith('-mcp') ? name.replace(/^@[^/]+\//, '') : `${name.replace(/^@[^/]+\//, '')}-mcp`) : undefined;
    const info: PackageInfo = {
      format: EXPORT_FORMAT,
      version: (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
      exportedAt: new Date().toISOString(),
      formatKind: o.format,
      run: { folder: basename(folder.dir), createdAt: run.createdAt, env, seed: run.options.seed, sandboxSeed: seedsOf(run.options).sandbox, selection: run.options.selection },
      node: { id: node.id, kind: node.kind, parent: node.parent, ...(node.description ? { description: node.description } : {}), chosenBy: selected.chosenBy },
      scores: { ...selected.scores, ...(memory.shipped ? { shipped: memory.shipped } : {}) },
      program: { hash: program.hash, entry: 'program/index.ts', bundle: 'dist/program.js', files },
      env: { name: env, reward: memory.reward, mode: memory.mode, budget: memory.budget },
      memory: { dir: 'memory', episodes: memory.episodes, worlds: memory.worlds, updateErrors: memory.updateErrors.length, models: memory.models, scope: memory.scope },
      native: nativeTarget(native),
    };
    const pkg = packageJson({ name, info, dependencies, optionalDependencies, bundled, ...(bin ? { bin } : {}) });
    const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(3));
    writeTextFiles(
      o.out,
      pkg,
      {
        name,
        version: info.version,
        node: node.id,
        description: node.description ?? '—',
        chosenBy: { final: "the run's final choice", lcb: 'best lower confidence bound', node: 'by name' }[selected.chosenBy],
        run: info.run.folder,
        env,
        episodes: memory.episodes,
        reward: memory.reward,
        validation: fmt(selected.scores.validation),
        n: selected.scores.n,
        lcb: fmt(selected.scores.lcb),
        test: fmt(selected.scores.test),
        shipped: shippedLine(memory),
        hash: program.hash,
        maxChars: memory.budget.maxChars,
        maxImages: memory.budget.maxImages,
        memo: memory.models.memo,
        embed: memory.models.embed,
        bin: bin ?? '',
        exampleTask: JSON.stringify((memory.exampleTask ?? 'What should I know before starting this task?').slice(0, 120)).slice(1, -1).replace(/'/g, "\\'"),
        heapMb: DEFAULT_LIMITS.heapMb,
        cpuS: DEFAULT_LIMITS.callCpuMs / 1000,
        wallS: DEFAULT_LIMITS.callWallMs / 1000,
        nativeBundled: native === 'bundle' ? 'yes' : '',
        onnxBundled: bundled.includes('onnxruntime-node') ? 'yes' : '',
        platform: `${info.native.platform}-${info.native.arch}`,
        abi: String(info.native.abi),
      },
      withMcp,
    );
    return { out: o.out, name, info, memory, ...(bin ? { bin } : {}), timings: { compileMs, memoryMs, bundleMs, totalMs: Math.round(performance.now() - started) } };
  } catch (err) {
    if (createdOut) rmSync(o.out, { recursive: true, force: true });
    else for (const f of readdirSync(o.out)) rmSync(join(o.out, f), { recursive: true, force: true });
    throw err;
  } finally {
    await closeHostServices();
  }
}

/** What the shipped memory holds and, where it differs from what the search scored, what it scores itself. */
export function shippedLine(memory: Pick<BuiltMemory, 'scope' | 'shipped'>): string {
  const s = memory.shipped;
  if (!s) return memory.scope;
  const score = s.validation === null ? (s.note ?? 'nothing could be scored') : `${s.validation.toFixed(3)} on the same ${s.tasks} validation tasks`;
  return `${memory.scope}; as shipped it scores ${score}`;
}
