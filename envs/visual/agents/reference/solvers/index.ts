// The reference agent's knowledge of each family.
import type { Solver } from '../solver.ts';
import { chartsSolver } from './charts.ts';
import { lookupSolver } from './lookup.ts';
import { mazesSolver } from './mazes.ts';
import { microtextSolver } from './microtext.ts';
import { scenesSolver } from './scenes.ts';

export const SOLVERS: Solver[] = [chartsSolver, scenesSolver, mazesSolver, microtextSolver, lookupSolver];
