// colors [x1,y1,x2,y2]: coloured regions in the box — colour name, hex, box, size, fill ratio.
import { findBlobs } from './blobs.ts';
import { formatBox, regionOf } from './common.ts';
import { toBox } from './pixels.ts';
import type { ToolSpec } from './types.ts';

export const colors: ToolSpec = {
  name: 'colors',
  usage: 'colors [x1,y1,x2,y2] (image=N)',
  summary: 'list the coloured regions in the box: colour, hex, box, pixel count, fill ratio (largest first)',
  async run(call, ctx) {
    const { box, r, area } = await regionOf(call, ctx);
    const blobs = findBlobs(r, area)
      .sort((a, b) => b.pixels - a.pixels)
      .slice(0, 40)
      .map((b) => ({ color: b.color, hex: b.hex, box: toBox(b, r.width, r.height), pixels: b.pixels, fill: Math.round(b.fill * 100) / 100 }));
    const text = blobs.length
      ? blobs.map((b) => `${b.color} ${b.hex} ${formatBox(b.box)} ${b.pixels}px fill ${b.fill}`).join('\n')
      : `no coloured regions in ${formatBox(box)}`;
    return { text, data: { box, blobs } };
  },
};
