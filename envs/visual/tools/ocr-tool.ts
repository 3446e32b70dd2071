// ocr [x1,y1,x2,y2]: text in the box, read by tesseract after enlarging the crop (small print needs a small box).
import { boxOf, formatBox, imageOf } from './common.ts';
import type { Box } from './grammar.ts';
import { recognize } from './ocr.ts';
import { crop, toBox } from './pixels.ts';
import type { ToolSpec } from './types.ts';

export interface OcrLineData {
  text: string;
  unreadable?: boolean;
  box: Box;
  words: { text: string; box: Box; confidence: number }[];
}

export const ocrTool: ToolSpec = {
  name: 'ocr',
  usage: 'ocr [x1,y1,x2,y2] (image=N)',
  summary: 'read the text inside the box (default: the whole image); small print is only readable in a small box',
  async run(call, ctx) {
    const img = imageOf(call, ctx);
    const box = boxOf(call);
    const c = await crop(img.png, box, { target: 1600, maxScale: 4 });
    const out = await recognize(c.png);
    // OCR pixels (of the scaled crop) → 0–999 coordinates of the whole image.
    const map = (x0: number, y0: number, x1: number, y1: number): Box =>
      toBox({ x0: c.px.left + x0 / c.scale, y0: c.px.top + y0 / c.scale, x1: c.px.left + x1 / c.scale, y1: c.px.top + y1 / c.scale }, img.width, img.height);
    const lines: OcrLineData[] = out.lines.map((l) => ({
      text: l.text,
      ...(l.unreadable ? { unreadable: true } : {}),
      box: map(l.x0, l.y0, l.x1, l.y1),
      words: l.words.map((w) => ({ text: w.text, box: map(w.x0, w.y0, w.x1, w.y1), confidence: w.confidence })),
    }));
    const readable = lines.filter((l) => !l.unreadable);
    const small = lines.length - readable.length;
    const text =
      (readable.length ? readable.map((l) => `"${l.text}" ${formatBox(l.box)}`).join('\n') : `no readable text in ${formatBox(box)}`) +
      (small ? `\n(${small} line(s) of print too small to read at this scale; a smaller box enlarges them)` : '');
    return { text, data: { box, lines } };
  },
};
