import { describe, expect, it } from 'vitest';
import { dataUrl, imagePart } from '../../foundation/image-part.ts';

describe('image parts', () => {
  it('carry the bytes as a base64 data URL of the given type, readable back byte for byte', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 10]);
    const part = imagePart(bytes, 'image/jpeg');
    expect(part.type).toBe('image_url');
    const m = /^data:(image\/jpeg);base64,(.+)$/.exec(part.image_url.url);
    expect(m?.[1]).toBe('image/jpeg');
    expect(Buffer.from(m?.[2] ?? '', 'base64')).toEqual(bytes);
    expect(dataUrl(Buffer.alloc(0), 'image/png')).toBe('data:image/png;base64,');
  });
});
