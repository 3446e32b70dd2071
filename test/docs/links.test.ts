// The READMEs' links stay inside the repository and lead somewhere: a clone has no ../shared beside it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';

const SKIP = new Set(['node_modules', '.git', 'types', 'runs', '.scratch']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? markdownFiles(path) : e.name.endsWith('.md') ? [path] : [];
  });
}

describe('links in the documentation', () => {
  it('lead to files of this repository that exist', () => {
    const bad: string[] = [];
    const files = markdownFiles(repoRoot);
    expect(files.map((f) => relative(repoRoot, f))).toContain(join('docs', 'design.md'));
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (m[1] as string).split('#')[0] as string;
        if (!target || /^[a-z]+:/i.test(target)) continue;
        const path = resolve(dirname(file), target);
        const where = `${relative(repoRoot, file)}: ${m[1]}`;
        if (relative(repoRoot, path).startsWith('..')) bad.push(`${where} leaves the repository`);
        else if (!existsSync(path)) bad.push(`${where} does not exist`);
      }
    }
    expect(bad).toEqual([]);
  });
});
