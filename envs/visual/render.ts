// SVG → PNG with resvg and the DejaVu fonts shipped in an npm package, so every machine renders the same pixels
// (resvg silently drops text when no font is loaded).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const require = createRequire(import.meta.url);
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf'].map((f) => join(fontDir, f));
export const FONT = 'DejaVu Sans';
export const MONO = 'DejaVu Sans Mono';

export function renderSvg(svg: string): { png: Buffer; width: number; height: number } {
  const r = new Resvg(svg, { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT } }).render();
  return { png: r.asPng(), width: r.width, height: r.height };
}

/** Escapes text for an SVG text node or attribute. */
export function esc(s: string | number): string {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function svgDoc(width: number, height: number, body: string, background = '#ffffff'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${background}"/>${body}</svg>`;
}

export function text(x: number, y: number, s: string | number, opts: { size?: number; fill?: string; anchor?: 'start' | 'middle' | 'end'; weight?: 'bold'; family?: string; rotate?: number } = {}): string {
  const rot = opts.rotate ? ` transform="rotate(${opts.rotate} ${x} ${y})"` : '';
  return `<text x="${x}" y="${y}" font-family="${opts.family ?? FONT}" font-size="${opts.size ?? 14}" fill="${opts.fill ?? '#111111'}"${opts.anchor ? ` text-anchor="${opts.anchor}"` : ''}${opts.weight ? ` font-weight="${opts.weight}"` : ''}${rot}>${esc(s)}</text>`;
}
