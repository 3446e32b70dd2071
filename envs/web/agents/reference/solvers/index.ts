// The reference agent's generic procedures, one per site.
import type { WebSolver } from '../solver.ts';
import { codeSolver } from './code.ts';
import { helpdeskSolver } from './helpdesk.ts';
import { recipesSolver } from './recipes.ts';
import { shopSolver } from './shop.ts';
import { travelSolver } from './travel.ts';

export const SOLVERS: WebSolver[] = [shopSolver, travelSolver, recipesSolver, codeSolver, helpdeskSolver];
