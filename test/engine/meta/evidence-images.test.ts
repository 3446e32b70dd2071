// Evidence images for the meta model: at most 4 per episode (the task's own first, then the latest screenshots)
// and 2 of memory, found by id inside the evidence folder; a tampered line cannot point anywhere else.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evidenceImages } from '../../../engine/meta/evidence-images.ts';

const dir = mkdtempSync(join(tmpdir(), 'evidence-images-'));
const outside = mkdtempSync(join(tmpdir(), 'evidence-outside-'));
mkdirSync(join(dir, 'images'));
for (const id of ['task1', 's1', 's2', 's3', 's4', 's5', 'm1', 'm2', 'm3']) writeFileSync(join(dir, 'images', `${id}.png`), 'png');
writeFileSync(join(outside, 'secret.png'), 'secret');
symlinkSync(join(outside, 'secret.png'), join(dir, 'images', 'linked.png'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const files = (ids: string[]) => ids.map((id) => `images/${id}.png`);

describe('evidence images', () => {
  it('keep the task image and the latest screenshots, 4 per episode, and 2 of memory', () => {
    const shown = evidenceImages(dir, {
      payload: { images: ['m1', 'm2', 'm3'] },
      trajectory: { images: ['task1'], steps: ['s1', 's2', 's3', 's4', 's5'].map((id) => ({ images: [id] })), files: files(['task1', 's1', 's2', 's3', 's4', 's5', 'm1', 'm2', 'm3']) },
    });
    expect(shown.episode.map((f) => f.split('/').at(-1))).toEqual(['task1.png', 's5.png', 's4.png', 's3.png']);
    expect(shown.payload.map((f) => f.split('/').at(-1))).toEqual(['m1.png', 'm2.png']);
  });

  it('ignore paths that leave the evidence folder, odd ids, and links', () => {
    const shown = evidenceImages(dir, {
      payload: { images: ['../x', 'linked'] },
      trajectory: { images: ['secret', '../../etc/passwd', 'linked'], steps: [], files: ['../evidence-outside/secret.png', 'images/../../x.png', '/etc/passwd', 'images/linked.png'] },
    });
    expect(shown).toEqual({ episode: [], payload: [] });
  });
});
