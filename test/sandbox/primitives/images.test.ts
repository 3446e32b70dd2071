import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { caption, closeOcr, ImageStore, ocr, perceptualHash, pixelEmbedding, thumbnail } from '../../../sandbox/primitives/images.ts';

const svg = (body: string, w = 400, h = 200) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#fff"/>${body}</svg>`);
const png = (body: string, w?: number, h?: number) => sharp(svg(body, w, h)).png().toBuffer();
const hamming = (a: string, b: string) =>
  [...a].reduce((n, ch, i) => n + ((parseInt(ch, 16) ^ parseInt(b[i] as string, 16)).toString(2).split('1').length - 1), 0);

afterAll(() => closeOcr());

describe('image primitives', () => {
  it('gives near-identical perceptual hashes to a resized copy and distant ones to a different image', async () => {
    // Asymmetric on purpose: a symmetric image zeroes half the DCT terms and their bits become noise.
    const a = await png('<circle cx="120" cy="70" r="50" fill="#222"/><rect x="250" y="90" width="110" height="90" fill="#888"/><path d="M0 200 L160 120 L200 200 Z" fill="#555"/>');
    const aSmall = await sharp(a).resize(200, 100).png().toBuffer();
    const b = await png('<rect x="20" y="20" width="360" height="40" fill="#222"/><circle cx="300" cy="150" r="30" fill="#555"/>');
    const [ha, hs, hb] = await Promise.all([perceptualHash(a), perceptualHash(aSmall), perceptualHash(b)]);
    expect(ha).toMatch(/^[0-9a-f]{16}$/);
    expect(hamming(ha, hs)).toBeLessThanOrEqual(6);
    expect(hamming(ha, hb)).toBeGreaterThan(16);
  });

  it('stores images by content and makes thumbnails within the requested size', async () => {
    const store = new ImageStore();
    const bytes = await png('<circle cx="200" cy="100" r="80" fill="#06c"/>');
    const ref = await store.put(bytes, { caption: 'a blue circle' });
    expect(await store.put(bytes)).toEqual(ref);
    expect(ref).toMatchObject({ mime: 'image/png', width: 400, height: 200, caption: 'a blue circle' });
    const meta = await sharp(await thumbnail(bytes, 64)).metadata();
    expect([meta.width, meta.height]).toEqual([64, 32]);
    expect(() => store.get('img_nope')).toThrow(/unknown image id "img_nope"/);
  });

  it('embeds image layout as a unit vector', async () => {
    const v = await pixelEmbedding(await png('<rect x="0" y="0" width="200" height="200" fill="#000"/>'));
    expect(v).toHaveLength(768);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
  });

  it('reads rendered text with offline OCR and falls back to it for captions', async () => {
    const bytes = await png('<text x="20" y="110" font-family="DejaVu Sans" font-size="44" fill="#000">INVOICE 10423</text>', 520, 180);
    const r = await ocr(bytes);
    expect(r.text.replace(/\s+/g, ' ')).toContain('INVOICE 10423');
    expect(r.confidence).toBeGreaterThan(60);
    const store = new ImageStore();
    const ref = await store.put(bytes);
    expect(await caption(store.get(ref.id), null)).toEqual({ text: r.text, offline: true, source: 'ocr' });
    const withCaption = await store.put(await png('<circle cx="10" cy="10" r="5"/>'), { caption: 'a dot' });
    expect(await caption(store.get(withCaption.id), null)).toEqual({ text: 'a dot', offline: true, source: 'caption' });
  });
});
