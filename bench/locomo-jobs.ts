// The embedding work a user waits on in a cold `automemo baselines --env locomo`: every job the embedding pool
// receives while the baselines are evaluated on LoCoMo's test split in this process with an empty cache — turns,
// the programs' own texts (notes, summaries, whole sessions: many past the model's 128 tokens) and one query per
// question, in the batches the programs' calls were cut into (mostly 1–4 texts). Replaying them on each backend
// measures texts/s on that mix rather than on uniform batches of similar turns.
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { join } from 'node:path';
import { openNamed } from '../api/environments.ts';
import { withHost } from '../api/host.ts';
import { runEvaluations } from '../engine/jobs/run-programs.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { BASELINES, resolveProgram } from '../memo-programs/registry.ts';
import type { EmbedBackend } from '../sandbox/primitives/embed-backend.ts';
import { embedPool } from '../sandbox/primitives/embed-pool.ts';

export interface RecordedJobs {
  /** Each job's texts, in the order the pool received them. */
  jobs: string[][];
  /** Wall clock of the recording evaluation. */
  seconds: number;
}

/** Evaluates the baselines on LoCoMo's test split (cache folder `cacheDir`, evidence under `outDir`), recording the pool's jobs. */
export async function recordLocomoJobs(backend: EmbedBackend, cacheDir: string, outDir: string): Promise<RecordedJobs> {
  const saved = process.env.AUTOMEMO_CACHE_DIR;
  process.env.AUTOMEMO_CACHE_DIR = cacheDir;
  try {
    const models = resolveModels({}, {});
    return await withHost(models, async (services) => {
      const { env } = await openNamed('locomo', { models, images: services.images, seed: 0, onNote: () => undefined });
      const pool = embedPool(backend);
      const jobs: string[][] = [];
      // Bench-only: watch what the process's pool is asked to run.
      const run = pool.run.bind(pool);
      pool.run = (owner, texts) => {
        jobs.push([...texts]);
        return run(owner, texts);
      };
      const started = performance.now();
      try {
        const r = await runEvaluations(BASELINES.map((name) => ({ name, path: resolveProgram(name).path })), env, 'test', services, join(outDir, 'locomo'));
        if (r.failures.length) throw new Error(`LoCoMo baselines failed: ${r.failures.map((f) => `${f.name}: ${f.reason}`).join('; ')}`);
      } finally {
        pool.run = run;
        await env.close?.();
      }
      return { jobs, seconds: (performance.now() - started) / 1000 };
    });
  } finally {
    if (saved === undefined) delete process.env.AUTOMEMO_CACHE_DIR;
    else process.env.AUTOMEMO_CACHE_DIR = saved;
  }
}

/** Every `every`-th job, from the first: a fixed sample that keeps the slow backend's repetitions short. */
export function everyNth<T>(items: T[], every: number): T[] {
  return items.filter((_, i) => i % every === 0);
}
