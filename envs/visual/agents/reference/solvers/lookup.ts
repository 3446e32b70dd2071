// Placeholder: the reference agent's knowledge of the lookup family is being built.
import type { Solver } from '../solver.ts';

export const lookupSolver: Solver = { family: 'lookup', match: () => 0, generic: async () => undefined, derive: () => undefined };
