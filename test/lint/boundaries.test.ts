// The layers rule of eslint.config.js, as `npm run lint` runs it: an import planted in a layer (linted through
// ESLint's API under a path inside that layer, so nothing is written into the checkout) is refused when it reaches
// a layer above or beside its own, in every form an import takes, and accepted when it reaches its own folder or a
// layer below.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the project's ESLint config: plain JavaScript, without types
import { LAYERS, THROUGH } from '../../eslint.config.js';
import { repoRoot } from '../../foundation/paths.ts';

const layers = LAYERS as string[][];
const through = THROUGH as Record<string, string[]>;
const eslint = new ESLint({ cwd: repoRoot });
const rank = (folder: string) => layers.findIndex((group) => group.includes(folder));

/** A real file of the folder to import: the first .ts file at its top, in name order. */
const fileOf = (folder: string) =>
  join(
    folder,
    readdirSync(join(repoRoot, folder))
      .filter((n) => n.endsWith('.ts'))
      .sort()[0] as string,
  );

/** The layer errors ESLint reports for `code` as if it were the file at `filePath`. */
async function layerErrors(filePath: string, code: string, rule = 'boundaries/dependencies'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

const importing = (from: string, target: string) => {
  const spec = relative(from.split('/').slice(0, -1).join('/'), target);
  return `import * as planted from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport const used = planted;\n`;
};

describe('the layers rule', () => {
  it('refuses an import into any layer above or beside, and takes one into its own folder or below', async () => {
    const folders = layers.flat();
    const refused: string[] = [];
    const taken: string[] = [];
    for (const from of folders) {
      for (const to of folders) {
        const file = `${from}/planted.ts`;
        const errors = await layerErrors(file, importing(file, fileOf(to)));
        (errors.length ? refused : taken).push(`${from} → ${to}`);
        if (errors.length)
          expect(errors[0]).toBe(
            rank(to) < rank(from)
              ? `layers point down (THROUGH in eslint.config.js): ${from}/ reaches the layers below only through ${through[from]?.map((f) => `${f}/`).join(' and ')}, and this import reaches ${to}`
              : `layers point down (LAYERS in eslint.config.js): ${from}/ imports only its own files and the layers below it, and this import reaches ${to}`,
          );
      }
    }
    const upOrBeside = folders.flatMap((from) =>
      folders.filter((to) => to !== from && (rank(to) >= rank(from) || (through[from] && !through[from].includes(to)))).map((to) => `${from} → ${to}`),
    );
    expect(refused.sort()).toEqual(upOrBeside.sort());
    // The CLI is a thin layer over the library: past api/ it reaches only foundation/.
    expect(refused).toContain('cli → engine');
    expect(refused).toContain('cli → viewer');
    expect(taken).toContain('cli → api');
    expect(taken).toContain('engine → sandbox');
    expect(taken).toContain('cli → foundation');
    expect(refused).toContain('sandbox → engine');
    expect(refused).toContain('engine → run-store');
    // Beside: the environments and the run store know nothing of each other, nor do the viewer and the exporter.
    for (const pair of ['envs → run-store', 'run-store → envs', 'viewer → export', 'export → viewer'])
      expect(refused).toContain(pair);
  });

  it('refuses every form an import takes: type import, re-export, import() and an import type', async () => {
    const forms = [
      "import type { SearchOptions } from '../../api/search.ts';\nexport type T = SearchOptions;\n",
      "export { search } from '../../api/index.ts';\n",
      "export const load = () => import('../../cli/main.ts');\n",
      "export type Folder = import('../../run-store/run-folder.ts').RunFolder;\n",
    ];
    for (const code of forms) expect(await layerErrors('engine/search/planted.ts', code), code).toHaveLength(1);
  });

  it('refuses a layer importing what sits outside the layers (tests, benchmarks, scripts), which may import anything', async () => {
    expect(
      await layerErrors(
        'sandbox/planted.ts',
        "import { offlineServices } from '../test/support/services.ts';\nexport const s = offlineServices;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors('test/planted.test.ts', "import { main } from '../cli/main.ts';\nexport const m = main;\n"),
    ).toEqual([]);
  });

  it("refuses a layer below api/ reaching it by the package's own name", async () => {
    const byName = "import { search } from 'automemo';\nexport const s = search;\n";
    expect(await layerErrors('engine/planted.ts', byName, 'no-restricted-imports')).toEqual([
      "'automemo' import is restricted from being used. 'automemo' is api/: layers point down (LAYERS in eslint.config.js)",
    ]);
    expect(await layerErrors('cli/planted.ts', byName, 'no-restricted-imports')).toEqual([]);
  });
});
