// Placeholder: the lookup family is being built.
import type { Family } from '../task.ts';

export const lookup: Family = { name: 'lookup', description: '', tools: [], templates: [] };
