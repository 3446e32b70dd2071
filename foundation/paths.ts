// Where the repository's own parts live, resolved from this file so the CLI works from any directory.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const contractPath = join(repoRoot, 'memo-programs', 'contract.ts');
export const libDir = join(repoRoot, 'memo-programs', 'lib');
export const seedsDir = join(repoRoot, 'memo-programs', 'seeds');
export const nodeModulesDir = join(repoRoot, 'node_modules');

/** `a` is `b` or lies inside it. */
export function isInside(path: string, dir: string): boolean {
  const d = dir.endsWith('/') ? dir : `${dir}/`;
  return path === dir || path.startsWith(d);
}

/**
 * The folder of an installed package, found as Node finds it from automemo's own folder: in a checkout that is
 * node_modules/<name>; when automemo is itself installed, npm may have hoisted the package to a node_modules above.
 */
export function installedPackageDir(name: string): string {
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`package ${name} is not installed where automemo (${repoRoot}) can find it; run npm install`);
  }
}
