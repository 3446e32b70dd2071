// The visual families, in report order (a family with no templates yet is left out).
import type { Family } from '../task.ts';
import { charts } from './charts.ts';
import { lookup } from './lookup.ts';
import { mazes } from './mazes.ts';
import { microtext } from './microtext.ts';
import { scenes } from './scenes.ts';

export const FAMILIES: Family[] = [charts, scenes, mazes, microtext, lookup].filter((f) => f.templates.length > 0);
