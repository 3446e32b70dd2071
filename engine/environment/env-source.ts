// What an environment spec resolved to, as run.json records it (registry.ts resolves it), and the files a run keeps
// a copy of.
import { z } from 'zod';

export const EnvSourceSchema = z
  .object({
    /** As the user gave it, e.g. "visual:charts" or "./my-env.ts". */
    spec: z.string().max(4096),
    kind: z.enum(['builtin', 'module']),
    /** The definition's name. */
    name: z.string().max(64),
    arg: z.string().max(4096).optional(),
    /** A module's file, absolute, so the run finds it from any working folder. */
    path: z.string().max(4096).optional(),
    /**
     * A module's fingerprint over its local files (module-source.ts); a data option's over its files (data-files.ts).
     * Where the files sit is left out: a copy elsewhere fingerprints the same.
     */
    hash: z.string().max(64).optional(),
    files: z.number().int().nonnegative().optional(),
    /** Set when `path` is a run's copy of the module: the folder the copied files were in, where its packages are. */
    origin: z.string().max(4096).optional(),
  })
  .strict();
export type EnvSource = z.infer<typeof EnvSourceSchema>;

/** The files a run keeps a copy of: a module's local files, or the data files its option names. */
export interface EnvFiles {
  /** The folder the copy mirrors. */
  root: string;
  /** Absolute paths under root. */
  paths: string[];
}
