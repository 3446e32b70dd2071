// Where automemo keeps what it can compute again (collected episodes, embeddings, rendered images, OCR results):
// one folder shared by every part, so AUTOMEMO_CACHE_DIR moves all of it at once.
import { join } from 'node:path';
import { nodeModulesDir } from './paths.ts';

export function defaultCacheDir(): string {
  return process.env.AUTOMEMO_CACHE_DIR ?? join(nodeModulesDir, '.cache', 'automemo');
}
