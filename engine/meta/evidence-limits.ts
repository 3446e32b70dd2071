// How much evidence the meta agent reads. The paper's limits are maxima: per cluster the 2 best and 2 worst outcomes,
// up to 20,000 characters and 2 images of retrieved memory each. Seven clusters at those maxima made an analysis
// prompt of ~31,000 tokens of evidence, two thirds of a run's prompt tokens (issue 41), most of it memory lines that
// say nothing about why the task went as it did. So one analysis spends a budget of memory characters over all its
// cases, shown by what matters in them (memory-excerpt.ts): the gold lines of a success with a little context; the
// start of a failure's memory and the places where the gold or the question's words are. What decided a case is
// never cut to fit: the ground truth, the checker's note and the agent's decisive step (renderSteps) are shown as
// they are. evidence.ts picks the cases and spends the budget; evidence-images.ts picks the images.
export const LIMITS = {
  successes: 2,
  failures: 2,
  /**
   * Successes a cluster with failures shows: its best one says what the next version must protect; the room of a
   * second goes to the failures, which say what to change.
   */
  successesBesideFailures: 1,
  /** At most this much of a case's memory is read (the paper's limit). */
  memoryChars: 20_000,
  /**
   * Memory characters one analysis shows over all its cases: ~400 a case for 7 clusters of 3 cases, enough for a
   * success's gold line with its neighbours and a failure's first line and the places that matter; a case that needs
   * less (a short memory, a success whose gold is one line) leaves its share to the others. On the recorded LoCoMo
   * session (bench:search-recorded), 10,000 showed 75% of the snippets the recorded analyses quoted from the memory
   * they were shown whole, 8,000 showed 74%.
   */
  evidenceMemoryChars: 8_000,
  /** No case gets less than this, however many clusters there are. */
  caseMemoryMinChars: 400,
  /** Lines shown either side of a line that holds the gold. */
  goldContext: 1,
  /** Of a failure's share, at most this much goes to the memory's first lines (what ranked first). */
  failureHeadShare: 0.25,
  /** A shown memory line is cut here (one holding the gold shows a window around it). */
  lineChars: 400,
  memoryImages: 2,
  observationChars: 50_000,
  imagesPerEpisode: 4,
  /** What the agent did, per task. */
  actionChars: 12_000,
  /** A tool result in passing; the last one before the answer (the one that decided it) gets `decisiveChars`. */
  resultChars: 300,
  decisiveChars: 4_000,
};
