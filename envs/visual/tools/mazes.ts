// Tools of the mazes family (placeholder).
import type { ToolSpec } from './types.ts';

export const MAZES_TOOLS: ToolSpec[] = [];
