// The search policies by name: what --policy and search({ policy }) take.
import type { SearchPolicy } from '../policy.ts';
import { almaPolicy } from './alma.ts';
import { greedyPolicy } from './greedy.ts';
import { randomPolicy } from './random.ts';
import { ucbPaperPolicy, ucbPolicy } from './ucb.ts';

export const POLICY_NAMES = ['ucb', 'ucb-paper', 'greedy', 'random', 'alma-softmax'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export const POLICIES: Record<PolicyName, SearchPolicy> & Record<string, SearchPolicy | undefined> = {
  ucb: ucbPolicy,
  'ucb-paper': ucbPaperPolicy,
  greedy: greedyPolicy,
  random: randomPolicy,
  'alma-softmax': almaPolicy,
};
