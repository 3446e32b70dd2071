// OCR for the visual tools: lines are found in the pixels (text-lines.ts), then each is read by tesseract.js
// (offline, bundled English LSTM data) on two worker threads; lines and words come back with boxes. Results are cached by image bytes (in memory, and on disk under the cache folder
// unless AUTOMEMO_NO_DISK_CACHE is set): an evaluation repeats the same crops many times.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../../../foundation/cache-dir.ts';
import sharp from 'sharp';
import { installedPackageDir } from '../../../foundation/paths.ts';
import { findLines, grey, type LineBox } from './text-lines.ts';

export interface OcrWord {
  text: string;
  /** Pixels of the OCR input. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  confidence: number;
}

export interface OcrLine {
  text: string;
  /** Print too small to read at this scale (a smaller box would enlarge it). */
  unreadable?: boolean;
  words: OcrWord[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrOutput {
  text: string;
  lines: OcrLine[];
}

type Scheduler = {
  addWorker(w: unknown): string;
  addJob(action: 'recognize', image: Buffer, options?: object, output?: object): Promise<{ data: TessPage }>;
  terminate(): Promise<unknown>;
};
type TessBbox = { x0: number; y0: number; x1: number; y1: number };
type TessPage = {
  text: string;
  blocks: { paragraphs: { lines: { text: string; bbox: TessBbox; words: { text: string; bbox: TessBbox; confidence: number }[] }[] }[] }[] | null;
};

let scheduler: Promise<Scheduler> | undefined;
const WORKERS = 2;

async function start(): Promise<Scheduler> {
  const t = await import('tesseract.js');
  const mod = ((t as { default?: unknown }).default ?? t) as {
    createScheduler(): Scheduler;
    createWorker(l: string, oem: number, o: object): Promise<{ setParameters(p: object): Promise<unknown> }>;
    OEM: { LSTM_ONLY: number };
  };
  const s = mod.createScheduler();
  for (let i = 0; i < WORKERS; i++) {
    const w = await mod.createWorker('eng', mod.OEM.LSTM_ONLY, {
      langPath: join(installedPackageDir('@tesseract.js-data/eng'), '4.0.0_best_int'),
      gzip: true,
      cacheMethod: 'none',
    });
    // One line at a time (lines are found by text-lines.ts); a fixed resolution silences tesseract's guesses.
    await w.setParameters({ tessedit_pageseg_mode: '7', user_defined_dpi: '150' });
    s.addWorker(w);
  }
  return s;
}

const memory = new Map<string, OcrOutput>();
/** The reading code itself is part of every cache key: a change to line finding or reading never serves stale text. */
const CODE_VERSION = createHash('sha256')
  .update(['ocr.ts', 'text-lines.ts', 'components.ts'].map((f) => readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8')).join('\u0000'))
  .digest('hex')
  .slice(0, 12);
let diskLoaded = false;
const diskFile = () => join(defaultCacheDir(), 'visual-ocr-v2.jsonl');
const useDisk = () => !process.env.AUTOMEMO_NO_DISK_CACHE;

function loadDisk(): void {
  diskLoaded = true;
  if (!useDisk() || !existsSync(diskFile())) return;
  for (const line of readFileSync(diskFile(), 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const { key, out } = JSON.parse(line) as { key: string; out: OcrOutput };
      memory.set(key, out);
    } catch {
      // a torn last line: the rest is good
    }
  }
}

/** Lines lower than this many pixels are read at this height: tesseract needs about 20 px of capital height. */
const MIN_LINE_PX = 28;
/** Lines smaller than this are not text anyone could read at this scale; they come back as unreadable marks. */
const LEGIBLE_PX = 11;

async function readLine(s: Scheduler, png: Buffer, box: LineBox, width: number, height: number): Promise<OcrLine | undefined> {
  const h = box.y1 - box.y0 + 1;
  const pad = Math.max(4, Math.round(h * 0.35));
  const left = Math.max(0, box.x0 - pad);
  const top = Math.max(0, box.y0 - pad);
  const right = Math.min(width, box.x1 + pad + 1);
  const bottom = Math.min(height, box.y1 + pad + 1);
  const scale = h < MIN_LINE_PX ? MIN_LINE_PX / h : 1;
  let img = sharp(png).extract({ left, top, width: right - left, height: bottom - top }).greyscale();
  if (scale > 1) img = img.resize({ width: Math.round((right - left) * scale), kernel: 'lanczos3' });
  const { data } = await s.addJob('recognize', await img.png().toBuffer(), {}, { text: true, blocks: true });
  const words: OcrWord[] = [];
  for (const b of data.blocks ?? [])
    for (const p of b.paragraphs)
      for (const l of p.lines)
        for (const w of l.words) {
          if (!w.text.trim()) continue;
          words.push({
            text: w.text.trim(),
            x0: left + w.bbox.x0 / scale,
            y0: top + w.bbox.y0 / scale,
            x1: left + w.bbox.x1 / scale,
            y1: top + w.bbox.y1 / scale,
            confidence: Math.round(w.confidence),
          });
        }
  if (!words.length) return undefined;
  return { text: words.map((w) => w.text).join(' '), words, x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1 };
}

export async function recognize(png: Buffer): Promise<OcrOutput> {
  if (!diskLoaded) loadDisk();
  const key = `${CODE_VERSION}:${createHash('sha256').update(png).digest('hex').slice(0, 32)}`;
  const hit = memory.get(key);
  if (hit) return hit;
  scheduler ??= start();
  const s = await scheduler;
  const g = await grey(png);
  const boxes = findLines(g);
  let read: (OcrLine | undefined)[];
  try {
    read = await Promise.all(
      boxes.map((b) =>
        b.y1 - b.y0 + 1 < LEGIBLE_PX ? Promise.resolve({ text: '', unreadable: true, words: [], ...b }) : readLine(s, png, b, g.width, g.height),
      ),
    );
  } catch (err) {
    // A worker that failed may be broken: the next call starts fresh ones (the caller retries as infrastructure).
    if (scheduler) void scheduler.then((x) => x.terminate()).catch(() => undefined);
    scheduler = undefined;
    throw err;
  }
  const lines = read.filter((l): l is OcrLine => l !== undefined);
  const out: OcrOutput = { text: lines.filter((l) => !l.unreadable).map((l) => l.text).join('\n'), lines };
  memory.set(key, out);
  if (useDisk()) {
    try {
      mkdirSync(defaultCacheDir(), { recursive: true });
      appendFileSync(diskFile(), `${JSON.stringify({ key, out })}\n`);
    } catch {
      // the cache is an optimisation; a read-only folder only costs time
    }
  }
  return out;
}

export async function closeVisualOcr(): Promise<void> {
  const s = scheduler;
  scheduler = undefined;
  if (s) await (await s).terminate();
}
