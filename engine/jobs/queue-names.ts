// What the search and its Redis workers agree on besides the URL.
/** The BullMQ queue evaluation jobs go through. */
export const QUEUE_NAME = 'automemo-evaluations';
/** A worker's job failed because the worker must not run it: the reason starts with this. */
export const REFUSED = 'refused: ';
/** BullMQ's reason for a job whose workers died under it more often than allowed. */
export const STALLED_REASON = 'job stalled more than allowable limit';
/** Finished jobs stay this long, so a resumed search finds the results of jobs that finished without it. */
export const KEEP_SECONDS = 7 * 24 * 3600;
