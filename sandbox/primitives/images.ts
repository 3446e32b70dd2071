// Images the host holds for programs (programs only see ImageRef ids) and the image primitives:
// perceptual hash and thumbnails through sharp, OCR through tesseract.js (offline, bundled English data),
// an offline pixel-layout embedding, and captions (the image's own, a vision model's, or OCR text).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { ImageRef, OcrResult, TextResult } from '../../memo-programs/contract.ts';
import type { ChatService } from './chat.ts';
import { asBuffer } from '../../foundation/bytes.ts';

export interface StoredImage {
  ref: ImageRef;
  bytes: Uint8Array;
}

/** Content-addressed image store shared by the host; ids are stable across runs for the same bytes. */
export class ImageStore {
  private readonly images = new Map<string, StoredImage>();

  async put(bytes: Uint8Array, options: { mime?: string; caption?: string } = {}): Promise<ImageRef> {
    const id = `img_${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
    const existing = this.images.get(id);
    if (existing) return existing.ref;
    const meta = await sharp(bytes).metadata();
    const mime = options.mime ?? (meta.format ? `image/${meta.format}` : 'application/octet-stream');
    const ref: ImageRef = { id, mime };
    if (meta.width) ref.width = meta.width;
    if (meta.height) ref.height = meta.height;
    if (options.caption) ref.caption = options.caption;
    this.images.set(id, { ref, bytes: asBuffer(bytes) });
    return ref;
  }

  async putFile(path: string, options: { caption?: string } = {}): Promise<ImageRef> {
    return this.put(readFileSync(path), options);
  }

  get(id: string): StoredImage {
    const img = this.images.get(id);
    if (!img) throw new Error(`unknown image id "${id}"; use an ImageRef the host gave you`);
    return img;
  }

  has(id: string): boolean {
    return this.images.has(id);
  }

  get size(): number {
    return this.images.size;
  }

  /** Every image held, in the order they arrived. */
  list(): StoredImage[] {
    return [...this.images.values()];
  }
}

/** 64-bit DCT perceptual hash (32×32 greyscale, low 8×8 frequencies against their median) as 16 hex digits. */
export async function perceptualHash(bytes: Uint8Array): Promise<string> {
  const px = await sharp(bytes).flatten({ background: '#ffffff' }).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer();
  const N = 32;
  const cos = (k: number, x: number) => Math.cos(((2 * x + 1) * k * Math.PI) / (2 * N));
  const coeffs: number[] = [];
  for (let u = 0; u < 8; u++) {
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let x = 0; x < N; x++) {
        const cu = cos(u, x);
        for (let y = 0; y < N; y++) s += (px[y * N + x] as number) * cu * cos(v, y);
      }
      coeffs.push(s);
    }
  }
  const ac = coeffs.slice(1).sort((a, b) => a - b);
  const median = ((ac[31] as number) + (ac[32] as number)) / 2;
  let hex = '';
  for (let i = 0; i < 64; i += 4) {
    let nibble = 0;
    for (let b = 0; b < 4; b++) nibble = (nibble << 1) | ((coeffs[i + b] as number) > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

export async function thumbnail(bytes: Uint8Array, maxSide: number): Promise<Uint8Array> {
  return sharp(bytes).resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
}

/** Offline image embedding: 16×16 RGB layout, mean-centred, unit length (768-d). Not semantic. */
export async function pixelEmbedding(bytes: Uint8Array): Promise<number[]> {
  const px = await sharp(bytes).flatten({ background: '#ffffff' }).removeAlpha().resize(16, 16, { fit: 'fill' }).raw().toBuffer();
  const v = Array.from(px, (x) => x / 255);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const centred = v.map((x) => x - mean);
  const n = Math.sqrt(centred.reduce((a, b) => a + b * b, 0));
  return n === 0 ? centred : centred.map((x) => x / n);
}

type TesseractWorker = {
  recognize(image: Buffer): Promise<{ data: { text: string; confidence: number } }>;
  terminate(): Promise<unknown>;
};
let ocrWorker: Promise<TesseractWorker> | undefined;

async function startOcr(): Promise<TesseractWorker> {
  const tesseract = await import('tesseract.js');
  const create = (tesseract.createWorker ?? (tesseract as any).default.createWorker) as (...a: unknown[]) => Promise<TesseractWorker>;
  const OEM = tesseract.OEM ?? (tesseract as any).default.OEM;
  return create('eng', OEM.LSTM_ONLY, {
    // Resolved like an import, so it is found wherever npm put the package (an exported memory's host, too).
    langPath: join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'),
    gzip: true,
    cacheMethod: 'none',
  });
}

export async function ocr(bytes: Uint8Array): Promise<OcrResult> {
  ocrWorker ??= startOcr();
  const worker = await ocrWorker;
  // Tesseract reads small renders badly; scale tiny images up first.
  const meta = await sharp(bytes).metadata();
  const input =
    (meta.width ?? 0) < 300 ? await sharp(bytes).resize({ width: 600, kernel: 'lanczos3' }).png().toBuffer() : bytes;
  const { data } = await worker.recognize(asBuffer(input));
  return { text: data.text.trim(), confidence: Math.round(data.confidence * 10) / 10 };
}

/** Ends the OCR worker thread so the process can exit. */
export async function closeOcr(): Promise<void> {
  const w = ocrWorker;
  ocrWorker = undefined;
  if (w) await (await w).terminate();
}

export async function caption(image: StoredImage, vision: ChatService | null): Promise<TextResult> {
  if (image.ref.caption) return { text: image.ref.caption, offline: true, source: 'caption' };
  if (vision?.describeImage) {
    return { text: await vision.describeImage(image.bytes, image.ref.mime), offline: false, source: 'model' };
  }
  const { text } = await ocr(image.bytes);
  return { text, offline: true, source: 'ocr' };
}
