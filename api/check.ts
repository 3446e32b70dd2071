// check(): the quick examination of one memo program (imports, interface, update, retrieve, payload schema and
// budget), on an environment's samples when one is named, else on built-in samples.
import { existsSync, statSync } from 'node:fs';
import { type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { didYouMeanPath } from '../foundation/closest.ts';
import { asUsageSync, UsageError } from '../foundation/usage-error.ts';
import { runSeeds } from '../engine/run-seeds.ts';
import { resolveEntry } from '../sandbox/compile.ts';
import { type QuickExamReport, quickExam } from '../sandbox/quick-exam.ts';
import { typecheckLimitsOf } from '../sandbox/typecheck-thread.ts';
import { openNamed } from './environments.ts';
import { withHost } from './host.ts';
import { checkOptions, type OptionValues } from './options/derive.ts';

/** check(): the options declared for `check` (the program, an environment's samples, budgets, limits, seeds). */
export type CheckOptions = OptionValues<'check'> & {
  models?: ResolvedModels;
  onNote?: (message: string) => void;
};

export async function check(o: CheckOptions): Promise<QuickExamReport> {
  checkOptions('check', o);
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
            maxChars: o.budgetChars ?? env?.info().budget.maxChars ?? 50_000,
            maxImages: o.budgetImages ?? env?.info().budget.maxImages ?? 2,
          },
          ...(env ? { samples: await env.samples(5) } : {}),
          limits: {
            ...(o.heapMb !== undefined ? { heapMb: o.heapMb } : {}),
            ...(o.callCpuMs !== undefined ? { callCpuMs: o.callCpuMs } : {}),
            ...(o.callWallMs !== undefined ? { callWallMs: o.callWallMs } : {}),
          },
          typecheckLimits,
          seed: seeds.sandbox,
        },
      );
    } finally {
      await env?.close?.();
    }
  });
}
