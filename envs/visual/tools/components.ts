// Connected components of a binary mask (flood fill with an explicit stack): the boxes and pixel counts of the
// regions that text lines, zones and marks are made of.

export interface Component {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Pixels in the component. */
  n: number;
}

/** Components of the set pixels of `mask` (W×H); `diagonal` joins 8-neighbours, else 4-neighbours. */
export function maskComponents(mask: Uint8Array, W: number, H: number, options: { diagonal?: boolean } = {}): Component[] {
  const seen = new Uint8Array(W * H);
  const out: Component[] = [];
  const stack: number[] = [];
  const reach = options.diagonal ? 1 : 0;
  for (let s = 0; s < W * H; s++) {
    if (!mask[s] || seen[s]) continue;
    seen[s] = 1;
    stack.push(s);
    const c: Component = { x0: W, y0: H, x1: -1, y1: -1, n: 0 };
    while (stack.length) {
      const p = stack.pop() as number;
      const x = p % W;
      const y = (p - x) / W;
      c.n++;
      if (x < c.x0) c.x0 = x;
      if (x > c.x1) c.x1 = x;
      if (y < c.y0) c.y0 = y;
      if (y > c.y1) c.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= H) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx !== 0 && dy !== 0 && !reach) || (dx === 0 && dy === 0)) continue;
          const nx = x + dx;
          if (nx < 0 || nx >= W) continue;
          const q = ny * W + nx;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    out.push(c);
  }
  return out;
}
