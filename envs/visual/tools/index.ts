// Every tool by name. Families add their own here (one file each); both agents see the same set.
import { CHARTS_TOOLS } from './charts.ts';
import { colors } from './colors.ts';
import { LOOKUP_TOOLS } from './lookup.ts';
import { MAZES_TOOLS } from './mazes.ts';
import { SCENES_TOOLS } from './scenes.ts';
import { parseCall, type ToolCall } from './grammar.ts';
import { ocrTool } from './ocr-tool.ts';
import { type ToolContext, ToolError, type ToolResult, type ToolSpec } from './types.ts';
import { crop, zoom } from './zoom.ts';

/** Tools every family's tasks offer; families add their own. */
const COMMON_TOOLS: ToolSpec[] = [zoom, crop, ocrTool, colors];
export const COMMON_TOOL_NAMES: readonly string[] = COMMON_TOOLS.map((t) => t.name);
export const TOOLS: ToolSpec[] = [...COMMON_TOOLS, ...CHARTS_TOOLS, ...SCENES_TOOLS, ...MAZES_TOOLS, ...LOOKUP_TOOLS];
export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

function toolSpec(name: string): ToolSpec | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** Runs one call written as text; a malformed call or a ToolError comes back as an error observation. */
export async function runTool(line: string, ctx: ToolContext): Promise<{ call?: ToolCall; result?: ToolResult; error?: string }> {
  const call = parseCall(line, TOOL_NAMES);
  if (!call) return { error: `not a tool call: "${line.slice(0, 120)}"; tools: ${[...TOOL_NAMES].join(', ')}` };
  const spec = toolSpec(call.name) as ToolSpec;
  try {
    return { call, result: await spec.run(call, ctx) };
  } catch (err) {
    if (err instanceof ToolError) return { call, error: err.message };
    throw err;
  }
}
