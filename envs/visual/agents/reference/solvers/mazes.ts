// Placeholder: the reference agent's knowledge of the mazes family is being built.
import type { Solver } from '../solver.ts';

export const mazesSolver: Solver = { family: 'mazes', match: () => 0, generic: async () => undefined, derive: () => undefined };
