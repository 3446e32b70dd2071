// Placeholder: the reference agent's knowledge of the scenes family is being built.
import type { Solver } from '../solver.ts';

export const scenesSolver: Solver = { family: 'scenes', match: () => 0, generic: async () => undefined, derive: () => undefined };
