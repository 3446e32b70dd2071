// Export failures the user can fix by changing the command (a folder that is no run, a node that does not
// exist, an --out in use) are usage errors; a run whose program is gone or broken is a plain error.
export class ExportUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportUsageError';
  }
}
