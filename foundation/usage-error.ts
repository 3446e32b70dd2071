// A problem with what the user asked (an unknown environment, a bad option, a run folder that is not one): the
// library throws it as it is, the CLI prints it with the command's usage and exits 2.
export class UsageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsageError';
  }
}

/** Runs a step whose failures are the user's to fix (loading their environment, reading their data) as UsageErrors. */
export async function asUsage<T>(load: () => Promise<T> | T): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message, { cause: err });
  }
}

/** The same for a synchronous step (reading a run folder, naming a program). */
export function asUsageSync<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message, { cause: err });
  }
}
