// Placeholder: the mazes family is being built.
import type { Family } from '../task.ts';

export const mazes: Family = { name: 'mazes', description: '', tools: [], templates: [] };
