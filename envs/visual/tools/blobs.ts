// Colour and blob analysis: connected regions of one colour that differ from the background, with their
// bounding boxes, pixel counts and fill ratio. The region's background is its most common colour.
import { nameColor } from './palette.ts';
import { colorDistance, hex, type PxBox, type Raster } from './pixels.ts';

export interface Blob {
  /** Mean colour of the region's core pixels. */
  rgb: [number, number, number];
  hex: string;
  color: string;
  /** Pixel box, inclusive. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number;
  /** pixels / bounding-box area: ~1 square, ~0.785 circle, ~0.5 triangle, low for outlines. */
  fill: number;
}

/** The most common colour in a region (quantised to 8 levels per channel). */
export function backgroundOf(r: Raster, area: PxBox): [number, number, number] {
  const counts = new Map<number, { n: number; sum: [number, number, number] }>();
  const step = Math.max(1, Math.floor(Math.sqrt((area.width * area.height) / 20000)));
  for (let y = area.top; y < area.top + area.height; y += step)
    for (let x = area.left; x < area.left + area.width; x += step) {
      const i = (y * r.width + x) * 3;
      const a = r.data[i] as number;
      const b = r.data[i + 1] as number;
      const c = r.data[i + 2] as number;
      const k = ((a >> 5) << 6) | ((b >> 5) << 3) | (c >> 5);
      const e = counts.get(k) ?? { n: 0, sum: [0, 0, 0] };
      e.n++;
      e.sum[0] += a;
      e.sum[1] += b;
      e.sum[2] += c;
      counts.set(k, e);
    }
  let best = { n: 0, sum: [255, 255, 255] as [number, number, number] };
  for (const e of counts.values()) if (e.n > best.n) best = e;
  return best.n ? [best.sum[0] / best.n, best.sum[1] / best.n, best.sum[2] / best.n] : [255, 255, 255];
}

export interface BlobOptions {
  /** Distance from the background for a pixel to count (default 60). */
  foreground?: number;
  /** Distance between neighbours of one blob (default 48). */
  join?: number;
  /** Smallest blob in pixels (default 12). */
  minPixels?: number;
  /** Background to assume (default: the region's most common colour). */
  background?: readonly number[];
}

/** Connected components (4-neighbour) of foreground pixels whose colours are close. */
export function findBlobs(r: Raster, area: PxBox, options: BlobOptions = {}): Blob[] {
  const bg = options.background ?? backgroundOf(r, area);
  const fgMin = options.foreground ?? 60;
  const joinMax = options.join ?? 48;
  const minPixels = options.minPixels ?? 12;
  const W = area.width;
  const H = area.height;
  const label = new Int32Array(W * H).fill(-1);
  const px = (x: number, y: number) => {
    const i = ((area.top + y) * r.width + area.left + x) * 3;
    return [r.data[i] as number, r.data[i + 1] as number, r.data[i + 2] as number] as const;
  };
  const isFg = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) isFg[y * W + x] = colorDistance(px(x, y), bg) > fgMin ? 1 : 0;
  const blobs: Blob[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < W * H; start++) {
    if (!isFg[start] || label[start] !== -1) continue;
    const id = next++;
    label[start] = id;
    stack.push(start);
    let n = 0;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    const sum = [0, 0, 0];
    let core = 0;
    while (stack.length) {
      const p = stack.pop() as number;
      const x = p % W;
      const y = (p - x) / W;
      const c = px(x, y);
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      // Anti-aliased edge pixels are blends; the core colour comes from pixels far from the background.
      if (colorDistance(c, bg) > fgMin * 1.5) {
        sum[0] += c[0];
        sum[1] += c[1];
        sum[2] += c[2];
        core++;
      }
      const neighbours = [x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1, y > 0 ? p - W : -1, y < H - 1 ? p + W : -1];
      for (const q of neighbours) {
        if (q < 0 || !isFg[q] || label[q] !== -1) continue;
        const qx = q % W;
        const qy = (q - qx) / W;
        if (colorDistance(px(qx, qy), c) > joinMax) continue;
        label[q] = id;
        stack.push(q);
      }
    }
    if (n < minPixels) continue;
    const mean: [number, number, number] = core ? [sum[0] / core, sum[1] / core, sum[2] / core] : [...px(x0, y0)] as [number, number, number];
    blobs.push({
      rgb: mean,
      hex: hex(mean),
      color: nameColor(mean).name,
      x0: x0 + area.left,
      y0: y0 + area.top,
      x1: x1 + area.left,
      y1: y1 + area.top,
      pixels: n,
      fill: n / ((x1 - x0 + 1) * (y1 - y0 + 1)),
    });
  }
  return blobs;
}
