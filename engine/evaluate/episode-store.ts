// Update episodes are collected once per (environment, split, agent configuration, data) and stored: every
// candidate program learns from the same recorded episodes, and collecting them (running an agent without
// memory) is paid once. Stored as JSON under a cache folder; a corrupt file is reported and collected again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../../memo-programs/contract.ts';
import { nodeModulesDir } from '../../sandbox/paths.ts';

export function defaultCacheDir(): string {
  return process.env.AUTOMEMO_CACHE_DIR ?? join(nodeModulesDir, '.cache', 'automemo');
}

export class EpisodeStore {
  constructor(private readonly dir = join(defaultCacheDir(), 'episodes')) {}

  key(parts: { env: string; split: string; agentId: string; data: Json }): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
  }

  /** Returns the stored value for `key`, collecting and storing it first if needed. */
  async getOrCollect<T>(key: string, collect: () => Promise<T>, onNote?: (message: string) => void): Promise<T> {
    const file = join(this.dir, `${key}.json`);
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as T;
      } catch (err) {
        onNote?.(`stored episodes ${file} are unreadable (${(err as Error).message}); collecting them again`);
      }
    }
    const value = await collect();
    mkdirSync(this.dir, { recursive: true });
    // Write-then-rename, so an interrupted write never leaves a half file under the real name.
    writeFileSync(`${file}.tmp`, JSON.stringify(value));
    renameSync(`${file}.tmp`, file);
    return value;
  }
}
