// Evidence images as a chat request's image parts (OpenAI's content parts, which any compatible multimodal endpoint
// reads): the text first, so the shared prefix stays cacheable, then each image after a line saying what it is.
// Images are read as the evidence wrote them, bounded; one that cannot be read is left out, never a failure.
import { extname } from 'node:path';
import { type ContentPart, dataUrl } from '../../../foundation/image-part.ts';
import { readSmallBytes } from '../../../foundation/small-file.ts';
import type { Cluster } from '../evidence.ts';

export type Content = string | ContentPart[];

/** An evidence image is a screenshot or a rendered task: far below this. */
const MAX_IMAGE_BYTES = 8 * 2 ** 20;
const MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };

export interface LabelledImage {
  label: string;
  file: string;
}

/** The images of a cluster's cases, in the order the cases are shown. */
export function imageParts(cluster: Cluster): LabelledImage[] {
  const out: LabelledImage[] = [];
  for (const c of [...cluster.successes, ...cluster.failures]) {
    for (const [i, file] of (c.images?.episode ?? []).entries()) out.push({ label: `task ${c.taskId}: episode image ${i + 1}`, file });
    for (const [i, file] of (c.images?.payload ?? []).entries()) out.push({ label: `task ${c.taskId}: memory image ${i + 1}`, file });
  }
  return out;
}

function fileDataUrl(file: string): string | undefined {
  const mime = MIME[extname(file).toLowerCase()];
  if (!mime) return undefined;
  try {
    const bytes = readSmallBytes(file, MAX_IMAGE_BYTES);
    return bytes?.length ? dataUrl(bytes, mime) : undefined;
  } catch {
    return undefined;
  }
}

/** The text alone when there is no image to show, else the text followed by each image with its label. */
export function withImages(text: string, images: LabelledImage[]): Content {
  const parts: ContentPart[] = [];
  for (const img of images) {
    const url = fileDataUrl(img.file);
    if (url) parts.push({ type: 'text', text: `Image: ${img.label}` }, { type: 'image_url', image_url: { url } });
  }
  return parts.length ? [{ type: 'text', text }, ...parts] : text;
}
