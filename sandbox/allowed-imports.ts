// The import allow-list for memo programs, shared by the compiler (which enforces it) and the
// type-checker (which resolves the same names). Programs get pure helpers and graph code, nothing of the host.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contractPath, libDir } from '../foundation/paths.ts';

/** npm packages a program may import, with any subpath. */
export const ALLOWED_PACKAGES = ['graphology', 'graphology-traversal', 'graphology-shortest-path', 'graphology-types'];

export function libHelpers(): string[] {
  return readdirSync(libDir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -3))
    .sort();
}

export function allowListText(): string {
  return (
    `automemo/contract, automemo/lib, automemo/lib/<helper> (${libHelpers().join(', ')}), ` +
    `${ALLOWED_PACKAGES.join(', ')} (and their subpaths), and relative files inside the program's own folder`
  );
}

export type ImportVerdict =
  | { kind: 'repo-file'; path: string }
  | { kind: 'package' }
  | { kind: 'relative' }
  | { kind: 'denied'; reason: string };

/** Decides what a specifier written in a program file refers to. */
export function classifyImport(specifier: string): ImportVerdict {
  if (specifier === 'automemo/contract') return { kind: 'repo-file', path: contractPath };
  if (specifier === 'automemo/lib') return { kind: 'repo-file', path: join(libDir, 'index.ts') };
  if (specifier.startsWith('automemo/lib/')) {
    const name = specifier.slice('automemo/lib/'.length).replace(/\.ts$/, '');
    const path = join(libDir, `${name}.ts`);
    if (/^[a-z0-9-]+$/.test(name) && existsSync(path)) return { kind: 'repo-file', path };
    return { kind: 'denied', reason: `automemo/lib has no helper "${name}"` };
  }
  if (specifier.startsWith('./') || specifier.startsWith('../')) return { kind: 'relative' };
  const pkg = specifier.split('/')[0] as string;
  if (ALLOWED_PACKAGES.includes(pkg)) return { kind: 'package' };
  if (specifier.startsWith('node:')) return { kind: 'denied', reason: 'Node built-ins are not available in the sandbox' };
  return { kind: 'denied', reason: 'it is not on the allow-list' };
}
