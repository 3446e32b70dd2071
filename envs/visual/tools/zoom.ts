// zoom [x1,y1,x2,y2]: the region enlarged, as an image the agent looks at.
import { boxOf, formatBox, imageOf } from './common.ts';
import { crop as cropImage } from './pixels.ts';
import type { ToolSpec } from './types.ts';

export const zoom: ToolSpec = {
  name: 'zoom',
  usage: 'zoom [x1,y1,x2,y2] (image=N)',
  summary: 'crop the box (0–999 coordinates) and enlarge it up to 4×; returns the crop as an image',
  async run(call, ctx) {
    const img = imageOf(call, ctx);
    const box = boxOf(call);
    const c = await cropImage(img.png, box, { target: 1024, maxScale: 4 });
    return {
      text: `zoomed ${formatBox(box)}: ${c.px.width}×${c.px.height} px shown at ${c.scale.toFixed(1)}×`,
      image: c.png,
      data: { box, scale: c.scale },
    };
  },
};

// crop [x1,y1,x2,y2]: the region at its own resolution (never enlarged), e.g. to keep a part of the image in view.
export const crop: ToolSpec = {
  name: 'crop',
  usage: 'crop [x1,y1,x2,y2] (image=N)',
  summary: 'cut out the box at its own resolution (not enlarged); returns the crop as an image',
  async run(call, ctx) {
    const img = imageOf(call, ctx);
    const box = boxOf(call);
    const c = await cropImage(img.png, box, { target: 1024, maxScale: 1 });
    return { text: `cropped ${formatBox(box)}: ${c.px.width}×${c.px.height} px${c.scale < 1 ? ` shown at ${c.scale.toFixed(2)}×` : ''}`, image: c.png, data: { box, scale: c.scale } };
  },
};
