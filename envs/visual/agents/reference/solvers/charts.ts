// Placeholder: the reference agent's knowledge of the charts family is being built.
import type { Solver } from '../solver.ts';

export const chartsSolver: Solver = { family: 'charts', match: () => 0, generic: async () => undefined, derive: () => undefined };
