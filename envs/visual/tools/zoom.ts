// zoom and crop: a region of the image as an image the agent looks at — enlarged up to 4× (zoom), or at its own
// resolution (crop). Both shrink regions larger than 1024 px, as a model's image input would be.
import { boxOf, formatBox, imageOf } from './common.ts';
import { crop as cropImage } from './pixels.ts';
import type { ToolSpec } from './types.ts';

function regionTool(name: string, verb: string, summary: string, maxScale: number): ToolSpec {
  return {
    name,
    usage: `${name} [x1,y1,x2,y2] (image=N)`,
    summary,
    async run(call, ctx) {
      const img = imageOf(call, ctx);
      const box = boxOf(call);
      const c = await cropImage(img.png, box, { target: 1024, maxScale });
      const shown = Math.abs(c.scale - 1) > 0.01 ? ` shown at ${c.scale.toFixed(c.scale < 1 ? 2 : 1)}×` : '';
      return { text: `${verb} ${formatBox(box)}: ${c.px.width}×${c.px.height} px${shown}`, image: c.png, data: { box, scale: c.scale } };
    },
  };
}

export const zoom = regionTool('zoom', 'zoomed', 'crop the box (0–999 coordinates) and enlarge it up to 4×; returns the crop as an image', 4);
export const crop = regionTool('crop', 'cropped', 'cut out the box at its own resolution (not enlarged); returns the crop as an image', 1);
