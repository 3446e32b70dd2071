// The page's classic scripts (search-trees/view/page/*.js) loaded outside a browser, as the browser loads them: each
// adds itself to window.Automemo. Only the parts that touch no DOM can be called this way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { repoRoot } from '../../../sandbox/paths.ts';

/** window.Automemo after running the named scripts of the page, in order. */
export function loadPageScripts<T>(...names: string[]): T {
  const window: { Automemo?: T; Node: unknown } = { Node: class {} };
  for (const name of names) runInNewContext(readFileSync(join(repoRoot, 'search-trees/view/page', name), 'utf8'), { window });
  return window.Automemo as T;
}
