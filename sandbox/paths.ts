// Where the repository's own parts live, resolved from this file so the CLI works from any directory.
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
