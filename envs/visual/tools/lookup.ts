// Tools of the lookup family (placeholder).
import type { ToolSpec } from './types.ts';

export const LOOKUP_TOOLS: ToolSpec[] = [];
