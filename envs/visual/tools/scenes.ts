// Tools of the scenes family (placeholder).
import type { ToolSpec } from './types.ts';

export const SCENES_TOOLS: ToolSpec[] = [];
