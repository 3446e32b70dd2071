// How much evidence the meta agent reads per cluster, within the paper's limits: the 2 best and 2 worst outcomes,
// up to 20,000 characters and 2 images of retrieved memory each. evidence.ts picks the cases and
// evidence-images.ts the images.
export const LIMITS = {
  successes: 2,
  failures: 2,
  memoryChars: 20_000,
  memoryImages: 2,
  observationChars: 50_000,
  imagesPerEpisode: 4,
  /** What the agent did, per task. */
  actionChars: 12_000,
  /** A tool result in passing; the last one before the answer (the one that decided it) gets `decisiveChars`. */
  resultChars: 300,
  decisiveChars: 4_000,
};
