// check(): the quick examination of one memo program (imports, interface, update, retrieve, payload schema and
// budget), on an environment's samples when one is named, else on built-in samples.
import { existsSync, statSync } from 'node:fs';
import { type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { didYouMeanPath } from '../foundation/closest.ts';
import { asUsageSync, UsageError } from '../foundation/usage-error.ts';
import { runSeeds } from '../engine/run-seeds.ts';
import { resolveEntry } from '../sandbox/compile.ts';
import type { SandboxLimits } from '../sandbox/isolate.ts';
import { type QuickExamReport, quickExam } from '../sandbox/quick-exam.ts';
import { type TypecheckLimits, typecheckLimitsOf } from '../sandbox/typecheck-thread.ts';
import { type EnvInput, openNamed } from './environments.ts';
import { withHost } from './host.ts';

export interface CheckOptions {
  /** A program file or folder. */
  program: string;
  /** Use this environment's sample episodes, tasks and budget. */
  env?: EnvInput;
  budget?: { maxChars?: number; maxImages?: number };
  limits?: Partial<SandboxLimits>;
  /** The type check's wall time (ms) and memory (heapMb); a program over them fails (default 60 s, 1024 MB). */
  typecheckLimits?: Partial<TypecheckLimits>;
  /** The run's seed (default 0): the sandbox's Math.random / ctx.random (seed + 1) and the samples' split. */
  seed?: number;
  /** The split the environment's samples come from (default: the run seed). */
  splitSeed?: number;
  models?: ResolvedModels;
  onNote?: (message: string) => void;
}

export async function check(o: CheckOptions): Promise<QuickExamReport> {
  if (typeof o?.program !== 'string' || !o.program) throw new UsageError('give program: a program file or folder');
  const entry = resolveEntry(o.program);
  if (!existsSync(o.program)) throw new UsageError(`no such program: ${o.program}${didYouMeanPath(o.program.slice(0, 1000))}`, { showUsage: false });
  if (!existsSync(entry) || !statSync(entry).isFile()) throw new UsageError(`no program entry file at ${entry}`);
  const seeds = runSeeds(o.seed, o.splitSeed);
  const typecheckLimits = asUsageSync(() => typecheckLimitsOf(o.typecheckLimits));
  const models = o.models ?? resolveModels();
  return withHost(models, async (services) => {
    const env = o.env ? (await openNamed(o.env, { models, images: services.images, seed: seeds.split, onNote: o.onNote ?? (() => undefined) })).env : undefined;
    try {
      return await quickExam(
        { entryPath: entry },
        {
          services,
          budget: {
            maxChars: o.budget?.maxChars ?? env?.info().budget.maxChars ?? 50_000,
            maxImages: o.budget?.maxImages ?? env?.info().budget.maxImages ?? 2,
          },
          ...(env ? { samples: await env.samples(5) } : {}),
          ...(o.limits ? { limits: o.limits } : {}),
          typecheckLimits,
          seed: seeds.sandbox,
        },
      );
    } finally {
      await env?.close?.();
    }
  });
}
