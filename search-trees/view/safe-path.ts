// Paths the viewer serves come from the page (and from journal lines, which anyone can edit): each is resolved
// inside the run folder and refused when it leaves it, by `..`, an absolute path, or a symbolic link pointing out.
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';

/** The absolute path of `rel` inside `root`, or null when it would leave `root` (or does not exist). */
export function insideRoot(root: string, rel: string): string | null {
  if (rel.includes('\0') || isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) return null;
  const base = realpathSync(root);
  const full = resolve(base, rel);
  if (full !== base && !full.startsWith(base + sep)) return null;
  if (!existsSync(full)) return null;
  const real = realpathSync(full);
  return real === base || real.startsWith(base + sep) ? real : null;
}
