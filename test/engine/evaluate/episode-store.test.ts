// The episode store's files: keys, episodes and images written whole and read back within bounds, names that are
// not ours refused, links and over-size files never read.
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EpisodeStore, MAX_EPISODE_BYTES } from '../../../engine/evaluate/episode-store.ts';

const root = mkdtempSync(join(tmpdir(), 'episode-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('EpisodeStore', () => {
  it('keys by content and reads back what it wrote, leaving no temporary files', () => {
    const key = EpisodeStore.key({ env: 'web', agentId: 'ref-1', data: { seed: 1 } });
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    expect(EpisodeStore.key({ env: 'web', agentId: 'ref-2', data: { seed: 1 } })).not.toBe(key);
    const store = new EpisodeStore(join(root, 'a'));
    const item = EpisodeStore.key(['t1']);
    expect(store.readEpisode(key, item)).toBeUndefined();
    store.writeEpisode(key, item, '{"taskId":"t1"}');
    expect(new EpisodeStore(join(root, 'a')).readEpisode(key, item)).toBe('{"taskId":"t1"}');
    store.writeImage('img_0123456789abcdef', Buffer.from('png bytes'));
    expect(store.readImage('img_0123456789abcdef')?.toString()).toBe('png bytes');
    expect(readdirSync(join(root, 'a', key)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses names that are not its keys or image ids', () => {
    const store = new EpisodeStore(join(root, 'b'));
    expect(() => store.readEpisode('../../etc', EpisodeStore.key(1))).toThrow(/not a hex key/);
    expect(() => store.writeEpisode(EpisodeStore.key(1), '../x', '{}')).toThrow(/not a hex key/);
    expect(() => store.readImage('../../passwd')).toThrow(/not an image id/);
  });

  it('never reads through a link or an over-size file', () => {
    const store = new EpisodeStore(join(root, 'c'));
    const key = EpisodeStore.key('c');
    const [linked, big] = [EpisodeStore.key('linked'), EpisodeStore.key('big')];
    store.writeEpisode(key, big, '{}');
    writeFileSync(join(root, 'secret.json'), '{"secret":true}');
    symlinkSync(join(root, 'secret.json'), join(root, 'c', key, `${linked}.json`));
    expect(() => store.readEpisode(key, linked)).toThrow(/symbolic link/);
    writeFileSync(join(root, 'c', key, `${big}.json`), Buffer.alloc(MAX_EPISODE_BYTES + 1, 32));
    expect(() => store.readEpisode(key, big)).toThrow(/larger than automemo writes it/);
  });
});
