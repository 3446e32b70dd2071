// One edit the offline agent could make: typed edits (applied to the parent by apply-edit.ts), the mode that proposes
// it and how strongly, and why, in words for the description.
import type { Edit, ProposalMode } from '../types.ts';

export interface Candidate {
  mode: Exclude<ProposalMode, 'design' | 'model'>;
  /** How strongly its mode points at it (the evidence's weight, a helper's gain, a sweep's order). */
  weight: number;
  /** The evidence or reason that led to it, in a clause. */
  why: string;
  /** What it changes, in a clause. */
  what: string;
  edits: Edit[];
}

/** Weight from which an evidence candidate counts as the evidence pointing at it (weaker ones wait for the sweep). */
export const STRONG = 1;
