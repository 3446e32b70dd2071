// What a tool is: a name, a usage line for prompts, and a function from a call on the task's images to an
// observation (text for every agent, an image for zoom, structured data for the reference agent — all of it
// computed from pixels and from the environment's local "web", never from the generator's scene data).
import type { RenderedImage } from '../rendered-image.ts';
import type { ToolCall } from './grammar.ts';

export interface ToolResult {
  /** What the agent reads. */
  text: string;
  /** An image the agent sees (zoom). */
  image?: Buffer;
  /** Structured form of `text`, for the reference agent. */
  data?: unknown;
}

/** A mistake in the call (bad box, unknown page): shown to the agent as an error, not a crash. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface LookupPage {
  id: string;
  title: string;
  fields: Record<string, string>;
}

/** Resources shared by every task of the environment: the local catalogue and pages (the lookup family's web). */
export interface ToolWorld {
  catalogue: { id: string; png: Buffer }[];
  pages: Map<string, LookupPage>;
}

export interface ToolContext {
  images: RenderedImage[];
  world: ToolWorld;
}

export interface ToolSpec {
  name: string;
  /** e.g. "ocr [x1,y1,x2,y2]" */
  usage: string;
  summary: string;
  run(call: ToolCall, ctx: ToolContext): Promise<ToolResult>;
}
