// Finding lines of text in a picture before OCR. Tesseract's own page layout drops small print when a picture
// also holds large text and shapes (measured: 3 of 16 panel labels read), so lines are found here — connected
// dark-on-light components of character size, grouped left to right — and each line is read on its own.
import sharp from 'sharp';
import { type Component, maskComponents } from './components.ts';

export interface LineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}


/** Greyscale pixels and the background level (the most common grey). */
export async function grey(png: Buffer): Promise<{ data: Buffer; width: number; height: number; bg: number }> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < data.length; i += 7) hist[data[i] as number]++;
  return { data, width: info.width, height: info.height, bg: hist.indexOf(Math.max(...hist)) };
}

function components(g: { data: Buffer; width: number; height: number; bg: number }): Component[] {
  const { data, width: W, height: H, bg } = g;
  const mask = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) mask[i] = Math.abs((data[i] as number) - bg) > 60 ? 1 : 0;
  return maskComponents(mask, W, H, { diagonal: true });
}

/** Boxes of text lines, top to bottom. Shapes (large, or filled blocks) are not text. */
export function findLines(g: { data: Buffer; width: number; height: number; bg: number }): LineBox[] {
  const comps = components(g);
  const h = (c: LineBox) => c.y1 - c.y0 + 1;
  const w = (c: LineBox) => c.x1 - c.x0 + 1;
  const glyphs = comps.filter((c) => h(c) >= 4 && h(c) <= 110 && w(c) <= 3 * h(c) + 12 && c.n <= 0.92 * h(c) * w(c) + 6);
  const marks = comps.filter((c) => h(c) < 4 && w(c) < 40);
  glyphs.sort((a, b) => a.x0 - b.x0);
  const lines: (LineBox & { hmax: number })[] = [];
  for (const c of glyphs) {
    const cy = (c.y0 + c.y1) / 2;
    let best: (LineBox & { hmax: number }) | undefined;
    for (const l of lines) {
      const lh = l.y1 - l.y0 + 1;
      const overlap = Math.min(l.y1, c.y1) - Math.max(l.y0, c.y0) + 1;
      const gap = c.x0 - l.x1;
      if (overlap >= 0.5 * Math.min(lh, h(c)) && gap < 1.6 * Math.max(l.hmax, h(c)) && Math.abs(cy - (l.y0 + l.y1) / 2) < 0.6 * Math.max(l.hmax, h(c))) {
        best = l;
        break;
      }
    }
    if (best) {
      best.x0 = Math.min(best.x0, c.x0);
      best.x1 = Math.max(best.x1, c.x1);
      best.y0 = Math.min(best.y0, c.y0);
      best.y1 = Math.max(best.y1, c.y1);
      best.hmax = Math.max(best.hmax, h(c));
    } else lines.push({ x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, hmax: h(c) });
  }
  // Dots of i and j, hyphens: inside a line's band.
  for (const m of marks)
    for (const l of lines)
      if (m.x0 >= l.x0 - l.hmax && m.x1 <= l.x1 + l.hmax && m.y0 >= l.y0 - l.hmax / 2 && m.y1 <= l.y1 + l.hmax / 2) {
        l.x0 = Math.min(l.x0, m.x0);
        l.x1 = Math.max(l.x1, m.x1);
        l.y0 = Math.min(l.y0, m.y0);
        break;
      }
  // A line of one narrow glyph is usually a mark or an icon, not text.
  return lines
    .filter((l) => l.x1 - l.x0 + 1 >= 0.8 * l.hmax)
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)
    .map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }));
}
