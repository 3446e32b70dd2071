import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';

describe('EpisodeStore', () => {
  it('collects once per key and re-collects a corrupt file, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'episodes-'));
    try {
      const store = new EpisodeStore(dir);
      const key = store.key({ env: 'web', split: 'train', agentId: 'ref-1', data: { seed: 1 } });
      expect(store.key({ env: 'web', split: 'train', agentId: 'ref-2', data: { seed: 1 } })).not.toBe(key);
      let collected = 0;
      const collect = async () => {
        collected++;
        return [{ taskId: 't1' }];
      };
      expect(await store.getOrCollect(key, collect)).toEqual([{ taskId: 't1' }]);
      expect(await new EpisodeStore(dir).getOrCollect(key, collect)).toEqual([{ taskId: 't1' }]);
      expect(collected).toBe(1);
      writeFileSync(join(dir, `${key}.json`), '{"torn');
      const notes: string[] = [];
      await store.getOrCollect(key, collect, (m) => notes.push(m));
      expect(collected).toBe(2);
      expect(notes[0]).toMatch(/unreadable .* collecting them again/);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
