// A problem with what the user asked (an unknown environment, a bad option, a run folder that is not one): the
// library throws it as it is, the CLI prints it and exits 2 — with the command's usage when the problem is in the
// command line, without it when it is in what the user's own files hold (their environment module, their data).
export class UsageError extends Error {
  /** Whether the command's usage helps: false for problems inside the user's files. */
  readonly showUsage: boolean;

  constructor(message: string, options?: { cause?: unknown; showUsage?: boolean }) {
    super(message, options);
    this.name = 'UsageError';
    this.showUsage = options?.showUsage ?? true;
  }
}

/** Runs a step whose failures are the user's to fix (loading their environment, reading their data) as UsageErrors. */
export async function asUsage<T>(load: () => Promise<T> | T): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message, { cause: err, showUsage: false });
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
