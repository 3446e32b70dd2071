// The page's classic scripts (viewer/page/*.js) loaded outside a browser, as the browser loads them: each
// adds itself to window.Automemo. Only the parts that touch no DOM can be called this way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { repoRoot } from '../../foundation/paths.ts';

/** window.Automemo after running the named scripts of the page, in order. */
export function loadPageScripts<T>(...names: string[]): T {
  const window: { Automemo?: T; Node: unknown } = { Node: class {} };
  for (const name of names) runInNewContext(readFileSync(join(repoRoot, 'viewer/page', name), 'utf8'), { window });
  return window.Automemo as T;
}
