// Placeholder: the scenes family is being built.
import type { Family } from '../task.ts';

export const scenes: Family = { name: 'scenes', description: '', tools: [], templates: [] };
