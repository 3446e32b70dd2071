// A problem with what the user asked (an unknown environment, a bad option, a run folder that is not one): the
// library throws it as it is, the CLI prints it and exits 2 — with a pointer to the command's --help when the
// problem is in the command line, without it otherwise. A problem in what the user's own files hold (their environment module, their
// data) is a ContentError: not a usage error at all, so the CLI prints its message alone and exits 1.
export class UsageError extends Error {
  /** Whether the command's options help (the CLI points to --help): false for problems inside the user's files. */
  readonly showUsage: boolean;

  constructor(message: string, options?: { cause?: unknown; showUsage?: boolean }) {
    super(message, options);
    this.name = 'UsageError';
    this.showUsage = options?.showUsage ?? true;
  }
}

/** A problem in a benchmark's content (its module, its data): the user's to fix, but in their files, not the command. */
export class ContentError extends UsageError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, showUsage: false });
    this.name = 'ContentError';
  }
}

/** Runs a step whose failures are the user's to fix (naming a run folder, a seed) as UsageErrors. */
export async function asUsage<T>(load: () => Promise<T> | T): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message, { cause: err, showUsage: false });
  }
}

/** Runs a step whose failures are in the user's own files (loading their environment, reading their data) as ContentErrors. */
export async function asContent<T>(load: () => Promise<T> | T): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new ContentError((err as Error).message, { cause: err });
  }
}

/** The same for a synchronous step (reading a run folder, naming a program). */
export function asUsageSync<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message, { cause: err, showUsage: false });
  }
}
