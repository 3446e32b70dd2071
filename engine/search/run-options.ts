// What a search is asked to do (run.json's `options`): the environment, the budget, the seeds, the meta agent, the
// policy and its constants. A resume reads them back from the run, so every field is validated. A run of another
// format (run-store/run-folder.ts's RUN_FORMAT) is refused before its options are read.
import { z } from 'zod';
import { MAX_SEED, type RunSeeds } from '../run-seeds.ts';
import { ProtocolSchema } from '../environment/protocol.ts';
import { POLICY_NAMES } from './policies/index.ts';

/** More seeds than this is a mistake (each costs a full evaluation before the search starts). */
export const MAX_SEEDS = 32;

/** Steps in flight at most: each holds a model conversation and an evaluation. */
export const MAX_PARALLEL = 16;

export const RunOptionsSchema = z
  .object({
    env: z.string(),
    data: z.string().optional(),
    /** --strict: the data had to load whole (a resume refuses it if it no longer does). */
    strict: z.boolean().optional(),
    budget: z.number().int().min(0).max(10_000),
    seeds: z.array(z.string().min(1).max(4096)).max(MAX_SEEDS),
    /**
     * `--seeds auto`: step 0 screens these designs (named programs) on the first validation sample and seeds the tree
     * with the `keep` best (engine/search/screen.ts), after any explicit seeds.
     */
    screen: z.object({ designs: z.array(z.string().min(1).max(4096)).min(1).max(MAX_SEEDS), keep: z.number().int().min(1).max(MAX_SEEDS) }).strict().optional(),
    meta: z.enum(['model', 'offline']),
    seed: z.number().int(),
    /** The split's seed (engine/run-seeds.ts). */
    splitSeed: z.number().int().min(0).max(MAX_SEED),
    /** The isolate's Math.random seed. */
    sandboxSeed: z.number().int().min(0).max(MAX_SEED),
    maxUsd: z.number().positive().optional(),
    policy: z.enum(POLICY_NAMES),
    selection: z.enum(['lcb', 'max-mean']),
    evalFraction: z.number().gt(0).max(1),
    /** Validation tasks an evaluation scores at least (all when there are fewer; engine/search/validation-sampler.ts). */
    minEvalTasks: z.number().int().min(0).max(100_000),
    ucb: z.object({ cEval: z.number(), cGen: z.number(), lambda: z.number(), kappa: z.number(), minWidth: z.number().int(), seedsExpandable: z.boolean() }),
    repairAttempts: z.number().int().min(0).max(10),
    quickExamTasks: z.number().int().min(1),
    testWinner: z.boolean(),
    /** Steps in flight at once (1 when absent). */
    parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
    /** How the model meta agent groups evidence: CluE's pool (default) or the environment's metadata groups. */
    clustering: z.enum(['clue', 'metadata']).optional(),
    /** Share of the validation held out for selection only (selection-holdout.ts). */
    selectionShare: z.number().min(0).max(0.5),
    /** What a memory asked test questions learns from. */
    protocol: ProtocolSchema,
  })
  .strict();
export type RunOptions = z.infer<typeof RunOptionsSchema>;

/** The seeds a run was made with. */
export function seedsOf(o: RunOptions): RunSeeds {
  return { run: o.seed, split: o.splitSeed, sandbox: o.sandboxSeed };
}
