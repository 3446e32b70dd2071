// Pixel access for the perception tools: decoded RGB of an image (cached per buffer), boxes in 0–999
// coordinates mapped to pixels, crops and upscaled crops.
import sharp from 'sharp';
import type { Box } from './grammar.ts';

export interface Raster {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel. */
  data: Buffer;
}

// Decoded images are large (a 2400×1800 board is 13 MB) and an evaluation keeps hundreds of PNGs alive, so only
// the most recently used few stay decoded; tools call raster() several times per task on the same image.
const rasters = new Map<Buffer, Promise<Raster>>();
const RASTERS_KEPT = 8;

export function raster(png: Buffer): Promise<Raster> {
  let r = rasters.get(png);
  if (r) {
    rasters.delete(png);
    rasters.set(png, r);
  } else {
    if (rasters.size >= RASTERS_KEPT) rasters.delete(rasters.keys().next().value as Buffer);
    r = sharp(png)
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ width: info.width, height: info.height, data }));
    rasters.set(png, r);
  }
  return r;
}

export interface PxBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A 0–999 box in pixels of a width×height image (inclusive of the far edge). */
export function toPixels(box: Box, width: number, height: number): PxBox {
  const left = Math.floor((box[0] / 1000) * width);
  const top = Math.floor((box[1] / 1000) * height);
  const right = Math.min(width, Math.ceil(((box[2] + 1) / 1000) * width));
  const bottom = Math.min(height, Math.ceil(((box[3] + 1) / 1000) * height));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** A pixel rectangle back to 0–999 coordinates. */
export function toBox(px: { x0: number; y0: number; x1: number; y1: number }, width: number, height: number): Box {
  const c = (v: number, d: number) => Math.max(0, Math.min(999, Math.round((v / d) * 1000)));
  return [c(px.x0, width), c(px.y0, height), c(px.x1, width), c(px.y1, height)];
}

/**
 * The box's crop, scaled so its longer side is about `target` pixels (at most `maxScale`×). Regions larger than
 * the target are shrunk, as a model's image input would be: small print in a large region stays illegible.
 */
export async function crop(png: Buffer, box: Box, options: { target?: number; maxScale?: number } = {}): Promise<{ png: Buffer; scale: number; px: PxBox }> {
  const meta = await sharp(png).metadata();
  const px = toPixels(box, meta.width ?? 1, meta.height ?? 1);
  const scale = Math.max(0.25, Math.min(options.maxScale ?? 4, (options.target ?? 1600) / Math.max(px.width, px.height)));
  let img = sharp(png).extract(px);
  if (Math.abs(scale - 1) > 0.01) img = img.resize({ width: Math.max(1, Math.round(px.width * scale)), kernel: 'lanczos3' });
  return { png: await img.png().toBuffer(), scale, px };
}

export function hex(rgb: readonly number[]): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

export function parseHex(h: string): [number, number, number] {
  const m = h.replace('#', '');
  return [Number.parseInt(m.slice(0, 2), 16), Number.parseInt(m.slice(2, 4), 16), Number.parseInt(m.slice(4, 6), 16)];
}

export function colorDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot((a[0] as number) - (b[0] as number), (a[1] as number) - (b[1] as number), (a[2] as number) - (b[2] as number));
}
