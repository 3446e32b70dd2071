// The entry of an exported package: createMemory() runs the packaged memo program on the packaged memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Memory, type MemorySetup, openMemory } from './memory.ts';
import type { MemoryOptions } from './inputs.ts';
import { type PackageInfo, readPackageInfo } from './package-info.ts';

export type { Memory, MemoryStats, Restored, Retrieved } from './memory.ts';
export type { EpisodeInput, MemoryOptions, TaskInput } from './inputs.ts';
export type { PackageInfo } from './package-info.ts';

/** The package's folder: dist/ holds this code once bundled. @internal */
export const packageRoot = (): string => fileURLToPath(new URL('..', import.meta.url));

let cached: { setup: MemorySetup; info: PackageInfo; name: string; version: string } | undefined;

/** The package's program, environment and memory, read once. @internal (the MCP server's) */
export function packageSetup(root = packageRoot()): { setup: MemorySetup; info: PackageInfo; name: string; version: string } {
  if (cached) return cached;
  const { name, version, info } = readPackageInfo(root);
  const bundle = join(root, info.program.bundle);
  const setup: MemorySetup = {
    program: {
      entryPath: join(root, info.program.entry),
      rootDir: join(root, 'program'),
      code: readFileSync(bundle, 'utf8'),
      map: readFileSync(`${bundle}.map`, 'utf8'),
      hash: info.program.hash,
      files: info.program.files,
      ms: 0,
    },
    node: info.node.id,
    env: info.env.name,
    budget: info.env.budget,
    seed: info.run.sandboxSeed ?? info.run.seed,
    builtIn: join(root, info.memory.dir),
    info,
  };
  cached = { setup, info, name, version };
  return cached;
}

/**
 * The memory the package ships (built from the run's update episodes), or the one saved in options.memoryDir. A
 * memoryDir must be missing, an empty folder, or a memory automemo saved; any other folder (your files, a file,
 * the home folder) is refused with an error naming it, and nothing in it is ever replaced or deleted.
 */
export function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  return openMemory(packageSetup().setup, options);
}

/**
 * What the package records about its run, node and scores, without opening a memory: the same as `memory.about()`.
 */
export function about(): PackageInfo {
  return packageSetup().info;
}
