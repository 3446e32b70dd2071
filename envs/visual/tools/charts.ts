// Tools of the charts family (placeholder).
import type { ToolSpec } from './types.ts';

export const CHARTS_TOOLS: ToolSpec[] = [];
