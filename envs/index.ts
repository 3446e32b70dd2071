// The environments automemo ships, as definitions: registered exactly as a researcher's own module would be.
// Adding one here (or nowhere: --env ./my-env.ts) touches nothing under engine/, sandbox/ or run-store/.
import type { EnvironmentDefinition } from '../engine/environment/define.ts';
import { definition as data } from './data/index.ts';
import { definition as locomo } from './locomo/index.ts';
import { definition as visual } from './visual/index.ts';
import { definition as web } from './web/index.ts';

export const BUILTIN_ENVIRONMENTS: EnvironmentDefinition[] = [locomo, visual, web, data];
