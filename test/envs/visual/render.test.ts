// Rendering keeps PNGs on disk: a second render of the same SVG reads the file, a damaged file is rendered again.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderSvg, svgDoc, text } from '../../../envs/visual/render.ts';

const saved = { dir: process.env.AUTOMEMO_CACHE_DIR, off: process.env.AUTOMEMO_NO_DISK_CACHE };
const dir = mkdtempSync(join(tmpdir(), 'renders-'));
const restore = (key: string, value: string | undefined) => (value === undefined ? delete process.env[key] : (process.env[key] = value));
afterEach(() => {
  restore('AUTOMEMO_NO_DISK_CACHE', saved.off);
  restore('AUTOMEMO_CACHE_DIR', saved.dir);
  rmSync(dir, { recursive: true, force: true });
});

describe('renderSvg', () => {
  it('renders once, then serves the same pixels and size from the cache; a damaged file is rendered again', () => {
    process.env.AUTOMEMO_CACHE_DIR = dir;
    delete process.env.AUTOMEMO_NO_DISK_CACHE;
    const svg = svgDoc(120, 40, text(5, 25, 'S/N 4F7-2K9C', { size: 14 }));
    const first = renderSvg(svg);
    const files = readdirSync(join(dir, 'visual-renders'));
    expect(files).toHaveLength(1);
    expect(renderSvg(svg)).toEqual(first);
    expect(first).toMatchObject({ width: 120, height: 40 });
    writeFileSync(join(dir, 'visual-renders', files[0] as string), 'torn');
    expect(renderSvg(svg)).toEqual(first);
  });
});
