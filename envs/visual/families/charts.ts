// Placeholder: the charts family is being built.
import type { Family } from '../task.ts';

export const charts: Family = { name: 'charts', description: '', tools: [], templates: [] };
