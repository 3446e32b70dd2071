import type { SearchPolicy } from '../policy.ts';
import { almaPolicy } from './alma.ts';
import { greedyPolicy } from './greedy.ts';
import { randomPolicy } from './random.ts';
import { ucbPolicy } from './ucb.ts';

export const POLICIES: Record<string, SearchPolicy> = {
  ucb: ucbPolicy,
  greedy: greedyPolicy,
  random: randomPolicy,
  'alma-softmax': almaPolicy,
};
