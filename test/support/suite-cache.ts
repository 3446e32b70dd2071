// One cache folder per test run, shared by every test worker and every CLI process the tests start: the suite
// embeds, renders and OCRs the same LoCoMo turns and chart images many times, and pays for each once. A fresh
// folder per run keeps runs independent of each other and of the developer's own cache under node_modules, and
// of the developer's own user key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Once per run, whichever project (shared or own-worker) sets up first: both use the same folder.
  if (process.env.AUTOMEMO_SUITE_CACHE) return () => undefined;
  const dir = mkdtempSync(join(tmpdir(), 'automemo-suite-cache-'));
  process.env.AUTOMEMO_SUITE_CACHE = dir;
  process.env.AUTOMEMO_CACHE_DIR = dir;
  // This user's key (foundation/user-key.ts) for the run: the developer's own is never read or made.
  process.env.AUTOMEMO_CONFIG_DIR = join(dir, 'config');
  delete process.env.AUTOMEMO_NO_DISK_CACHE;
  return () => rmSync(dir, { recursive: true, force: true });
}
