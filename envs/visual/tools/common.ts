// Helpers every tool uses: which image a call is about, its box, and formatting of boxes in results.
import { type Box, FULL, formatBox, type ToolCall } from './grammar.ts';
import type { RenderedImage } from '../task.ts';
import { type PxBox, type Raster, raster, toPixels } from './pixels.ts';
import { type ToolContext, ToolError } from './types.ts';

export function imageOf(call: ToolCall, ctx: ToolContext): RenderedImage {
  const n = call.args.image ? Number(call.args.image) : 1;
  const img = Number.isInteger(n) ? ctx.images[n - 1] : undefined;
  if (!img) throw new ToolError(`image=${call.args.image} does not exist; this task has ${ctx.images.length} image(s)`);
  return img;
}

/** The call's box (whole image when absent); boxes narrower than `minSide` units are refused, as in AgentVista. */
export function boxOf(call: ToolCall, minSide = 8): Box {
  const b = call.box ?? FULL;
  if (b[2] - b[0] < minSide || b[3] - b[1] < minSide) throw new ToolError(`box ${formatBox(b)} is too small (at least ${minSide} units a side)`);
  return b;
}

/** What a pixel tool works on: the call's image, its box, the decoded pixels and the box in pixels. */
export async function regionOf(call: ToolCall, ctx: ToolContext): Promise<{ img: RenderedImage; box: Box; r: Raster; area: PxBox }> {
  const img = imageOf(call, ctx);
  const box = boxOf(call);
  const r = await raster(img.png);
  return { img, box, r, area: toPixels(box, r.width, r.height) };
}

export { formatBox };
