// An image as one part of a chat message: the `image_url` part with a base64 data URL that OpenAI-compatible
// multimodal endpoints read. The execution agents, the meta model's evidence and ctx.llm.chat's captions all
// send images this way.
import { asBuffer } from './bytes.ts';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}

export type ContentPart = TextPart | ImagePart;

/** `data:<mime>;base64,<bytes>`. */
export function dataUrl(bytes: Uint8Array, mime: string): string {
  return `data:${mime};base64,${asBuffer(bytes).toString('base64')}`;
}

export function imagePart(bytes: Uint8Array, mime: string): ImagePart {
  return { type: 'image_url', image_url: { url: dataUrl(bytes, mime) } };
}
