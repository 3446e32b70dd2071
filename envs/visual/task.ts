// What a visual task is. A family (charts, scenes, mazes, ...) has templates; a template renders seeded
// instances. Siblings (instances of one template) share a procedure — where to look, which tool, which
// convention — never an answer. Ground truth (answer, oracle procedure) stays in the environment.
import type { RenderedImage } from './rendered-image.ts';

/** The expected answer and how it is compared. */
export type Answer =
  | { kind: 'text'; value: string; aliases?: string[] }
  | { kind: 'number'; value: number; /** relative tolerance, default 0.01 */ tolerance?: number; /** absolute tolerance */ absolute?: number }
  | { kind: 'letter'; value: string };

// A rendered image is rendered-image.ts's (the tools read images without importing what a task is).
export type { RenderedImage };

/** One instance, as the generator makes it. */
export interface VisualTask {
  /** `<family>/<template>/<instance>` */
  id: string;
  family: string;
  template: string;
  instance: number;
  instruction: string;
  images: RenderedImage[];
  answer: Answer;
  /** The template's correct tool sequence for this instance, as tool-call strings (the oracle). */
  oracle: string[];
}

/** The generator's side of a template: the instance's SVG, question, answer and oracle. */
export interface TemplateInstance {
  svg: string;
  instruction: string;
  answer: Answer;
  oracle: string[];
}

export interface Template {
  id: string;
  /** The learnable quirk, in one line (README and the meta agent's description). */
  quirk: string;
  generate(random: () => number, instance: number): TemplateInstance;
}

export interface Family {
  name: string;
  /** One paragraph for the meta agent and the README. */
  description: string;
  /** Tools the family's tasks need beyond zoom and ocr. */
  tools: string[];
  templates: Template[];
  /** Resources the family's tools read (the lookup family's catalogue and pages), built once per seed. */
  resources?(seed: number): Partial<import('./tools/types.ts').ToolWorld>;
}
