// SVG → PNG with resvg and the DejaVu fonts shipped in an npm package, so every machine renders the same pixels
// (resvg silently drops text when no font is loaded). Rendering all tasks takes ~20 s (a 2400×1800 board ~90 ms),
// so PNGs are kept on disk under the cache folder, keyed by the SVG and the renderer and font versions.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { defaultCacheDir } from '../../foundation/cache-dir.ts';

const require = createRequire(import.meta.url);
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_NAMES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];
const FONT_FILES = FONT_NAMES.map((f) => join(fontDir, f));
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
const RENDERER = `resvg ${versionOf('@resvg/resvg-js')}, dejavu ${versionOf('dejavu-fonts-ttf')} ${FONT_NAMES.join(' ')}`;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const FONT = 'DejaVu Sans';

export function renderSvg(svg: string): { png: Buffer; width: number; height: number } {
  const useDisk = !process.env.AUTOMEMO_NO_DISK_CACHE;
  const file = join(
    defaultCacheDir(),
    'visual-renders',
    `${createHash('sha256').update(`${RENDERER}\u0000${svg}`).digest('hex').slice(0, 32)}.png`,
  );
  if (useDisk && existsSync(file)) {
    const png = readFileSync(file);
    // Width and height sit in the IHDR chunk; a file that is not a PNG (torn, overwritten) is rendered again.
    if (png.length > 24 && png.subarray(0, 8).equals(PNG_SIGNATURE))
      return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }
  const r = new Resvg(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT },
  }).render();
  const out = { png: r.asPng(), width: r.width, height: r.height };
  if (useDisk) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.${process.pid}.tmp`, out.png);
      renameSync(`${file}.${process.pid}.tmp`, file);
    } catch {
      // The cache is an optimisation; a read-only folder only costs time.
    }
  }
  return out;
}

/** Escapes text for an SVG text node or attribute. */
export function esc(s: string | number): string {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function svgDoc(width: number, height: number, body: string, background = '#ffffff'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${background}"/>${body}</svg>`;
}

export function text(
  x: number,
  y: number,
  s: string | number,
  opts: {
    size?: number;
    fill?: string;
    anchor?: 'start' | 'middle' | 'end';
    weight?: 'bold';
    family?: string;
    rotate?: number;
  } = {},
): string {
  const rot = opts.rotate ? ` transform="rotate(${opts.rotate} ${x} ${y})"` : '';
  return `<text x="${x}" y="${y}" font-family="${opts.family ?? FONT}" font-size="${opts.size ?? 14}" fill="${opts.fill ?? '#111111'}"${opts.anchor ? ` text-anchor="${opts.anchor}"` : ''}${opts.weight ? ` font-weight="${opts.weight}"` : ''}${rot}>${esc(s)}</text>`;
}
