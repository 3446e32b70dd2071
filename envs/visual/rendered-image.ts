// One image of a visual task, rendered to PNG: what the agent and the tools see.
export interface RenderedImage {
  /** File name inside evidence, e.g. "scene.png". */
  name: string;
  png: Buffer;
  width: number;
  height: number;
}
