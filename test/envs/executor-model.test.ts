// The memory message every model agent sends first: the payload's text in the agent's template, then the payload's
// images the host holds (an id it does not hold is left out), and no message at all for an empty payload.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { memoryMessage } from '../../envs/executor-model.ts';
import { ImageStore } from '../../sandbox/primitives/images.ts';

const TEMPLATE = 'Memory:\n{{memory}}';

describe('memory message', () => {
  it('is the filled template, then each payload image the store holds, as image parts', async () => {
    const store = new ImageStore();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0a0' } }).png().toBuffer();
    const ref = await store.put(png, { mime: 'image/png' });
    const m = memoryMessage({ text: '  past task: open the menu  ', images: [ref, { id: 'not-held', mime: 'image/png' }] }, TEMPLATE, store);
    expect(m?.role).toBe('user');
    const parts = m?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts).toHaveLength(2);
    expect(parts[0]).toEqual({ type: 'text', text: 'Memory:\npast task: open the menu' });
    expect(Buffer.from(parts[1]?.image_url?.url.replace('data:image/png;base64,', '') ?? '', 'base64')).toEqual(png);
  });

  it('says "(images only)" for a payload of images alone, and is absent for an empty payload', () => {
    const m = memoryMessage({ text: ' ', images: [{ id: 'x', mime: 'image/png' }] }, TEMPLATE, undefined);
    expect(m?.content).toEqual([{ type: 'text', text: 'Memory:\n(images only)' }]);
    expect(memoryMessage({ text: '\n', images: [] }, TEMPLATE, new ImageStore())).toBeUndefined();
  });
});
