// Import circles (scripts/import-cycles.mjs, run by `npm run lint`): found through any form of import, shown as the
// shortest loop, and none in automemo's layered folders.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the project's ESLint config: plain JavaScript, without types
import { LAYERS } from '../../eslint.config.js';
import { repoRoot } from '../../foundation/paths.ts';
// @ts-expect-error a plain .mjs script of the lint step, without types
import { importCycles } from '../../scripts/import-cycles.mjs';

const work = mkdtempSync(join(tmpdir(), 'import-cycles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tree of files under a fresh folder: path → text. */
function tree(name: string, files: Record<string, string>): string {
  const root = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import circles', () => {
  it('finds two files importing each other, even through types only, and the loop through three', () => {
    const root = tree('circles', {
      'a/task.ts': "import type { Tool } from './tools/types.ts';\nexport interface Task { tool: Tool }\n",
      'a/tools/types.ts': "import type { Task } from '../task.ts';\nexport interface Tool { task: Task }\n",
      'b/one.ts': "export { two } from './two.ts';\nexport const one = 1;\n",
      'b/two.ts': "export const two = () => import('./three.ts');\n",
      'b/three.ts': "export type One = import('./one.ts').One;\n",
      'b/free.ts': "import { one } from './one.ts';\nexport const free = one;\n",
    });
    const loops: string[][] = importCycles(root, ['a', 'b']);
    expect(loops).toHaveLength(2);
    expect(loops).toContainEqual(['a/task.ts', 'a/tools/types.ts', 'a/task.ts']);
    expect(loops).toContainEqual(['b/one.ts', 'b/two.ts', 'b/three.ts', 'b/one.ts']);
  });

  it('finds none where imports only go one way, and looks only in the folders it is given', () => {
    const root = tree('one-way', {
      'lib/records.ts': 'export interface Record { id: string }\n',
      'lib/stats.ts': "import type { Record } from './records.ts';\nexport const count = (r: Record[]) => r.length;\n",
      'lib/evaluate.ts':
        "import type { Record } from './records.ts';\nimport { count } from './stats.ts';\nexport const run = (r: Record[]) => count(r);\n",
      'other/x.ts': "import './y.ts';\n",
      'other/y.ts': "import './x.ts';\n",
    });
    expect(importCycles(root, ['lib'])).toEqual([]);
    expect(importCycles(root, ['lib', 'other'])).toEqual([['other/x.ts', 'other/y.ts', 'other/x.ts']]);
  });

  it('finds none in the layered folders', () => {
    expect(importCycles(repoRoot, (LAYERS as string[][]).flat())).toEqual([]);
  });
});
