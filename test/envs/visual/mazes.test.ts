// The mazes family: seeded generation, the maze read back from pixels, the oracle procedure through the
// reference agent, the generic procedure's use of failed siblings, and instructions that keep templates apart.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../engine/random.ts';
import { ReferenceAgent, SIBLING_SIMILARITY } from '../../../envs/visual/agents/reference/agent.ts';
import { align } from '../../../envs/visual/agents/reference/memory.ts';
import { mazesSolver } from '../../../envs/visual/agents/reference/solvers/mazes.ts';
import { SOLVERS } from '../../../envs/visual/agents/reference/solvers/index.ts';
import { checkAnswer } from '../../../envs/visual/check.ts';
import { FAMILIES } from '../../../envs/visual/families/index.ts';
import { mazes } from '../../../envs/visual/families/mazes.ts';
import { renderSvg } from '../../../envs/visual/render.ts';
import type { RenderedImage, Template, TemplateInstance } from '../../../envs/visual/task.ts';
import { runTool } from '../../../envs/visual/tools/index.ts';
import { asciiMap, parseMaze } from '../../../envs/visual/tools/maze-parse.ts';
import type { ToolWorld } from '../../../envs/visual/tools/types.ts';

const world: ToolWorld = { catalogue: [], pages: new Map() };
const agent = new ReferenceAgent(SOLVERS);
const generate = (t: Template, i: number, seed = 0) => t.generate(seededRandom('visual', seed, `mazes/${t.id}/${i}`), i);
const imagesOf = (inst: TemplateInstance): RenderedImage[] => {
  const { png, width, height } = renderSvg(inst.svg);
  return [{ name: 'maze.png', png, width, height }];
};
const payloadOf = (inst: TemplateInstance, outcome: 'SUCCESS' | 'FAILURE', actions = inst.oracle) => ({
  text: [`Task: ${inst.instruction}`, `Outcome: ${outcome}`, 'Actions:', ...actions.map((a, k) => `  ${k + 1}. ${a}`)].join('\n'),
  images: [],
});

describe('mazes family', () => {
  it('has four templates, generates deterministically and never repeats one answer for all siblings', () => {
    expect(mazes.templates).toHaveLength(4);
    for (const t of mazes.templates) {
      expect(generate(t, 3)).toEqual(generate(t, 3));
      const answers = new Set(Array.from({ length: 10 }, (_, i) => String(generate(t, i).answer.value)));
      expect(answers.size, t.id).toBeGreaterThan(1);
    }
  });

  it('reads the maze back from pixels: size, markers and doors', async () => {
    const [length, , doors] = mazes.templates as [Template, Template, Template];
    const plain = await parseMaze(imagesOf(generate(length, 0))[0]?.png as Buffer, [0, 0, 999, 999]);
    expect(plain.rows).toBeGreaterThanOrEqual(9);
    expect(plain.cols).toBeGreaterThanOrEqual(9);
    expect(plain.markers.map((m) => m.color).sort()).toEqual(['green', 'red']);
    expect(asciiMap(plain).split('\n')).toHaveLength(2 * plain.rows + 1);
    const withDoors = await parseMaze(imagesOf(generate(doors, 0))[0]?.png as Buffer, [0, 0, 999, 999]);
    expect(withDoors.doors).toHaveLength(4);
    expect(withDoors.doors.some((d) => d.barred)).toBe(true);
  });

  it('solves every template with its oracle procedure replayed from memory', async () => {
    for (const t of mazes.templates) {
      let solved = 0;
      for (let i = 0; i < 3; i++) {
        const inst = generate(t, i);
        const sibling = generate(t, i + 10);
        const run = await agent.run({ taskId: `mazes-${t.id}-${i}`, instruction: inst.instruction, images: imagesOf(inst) }, payloadOf(sibling, 'SUCCESS'), world);
        expect(run.memoryUse, t.id).toMatch(/^replayed/);
        if (checkAnswer(inst.answer, run.answer).correct) solved++;
      }
      expect(solved, t.id).toBe(3);
    }
  });

  it('steers the generic procedure away from the convention a failed sibling used', async () => {
    const doors = mazes.templates[2] as Template;
    const inst = generate(doors, 1);
    const failed = payloadOf(generate(doors, 11), 'FAILURE', ['grid', 'path from=green to=door locks=ignore']);
    const run = await agent.run({ taskId: 'mazes-avoid', instruction: inst.instruction, images: imagesOf(inst) }, failed, world);
    expect(run.steps.map((s) => s.action)).toContain('path from=green to=door locks=respect');
    expect(checkAnswer(inst.answer, run.answer).correct).toBe(true);
  });

  it('returns structured results from its tools and errors for unknown markers', async () => {
    const images = imagesOf(generate(mazes.templates[0] as Template, 0));
    const r = await runTool('path from=green to=red count=moves heading=north', { images, world });
    expect(r.result?.data).toMatchObject({ count: 'moves', heading: 'north' });
    expect((await runTool('path from=blue to=red', { images, world })).error).toMatch(/no blue marker/);
  });

  it('keeps templates apart (no cross-template replay) and matches only its own instructions', () => {
    const instructions = mazes.templates.map((t) => generate(t, 0).instruction);
    for (const [i, a] of instructions.entries()) {
      expect(mazesSolver.match(a)).toBeGreaterThan(0);
      for (const [j, b] of instructions.entries()) if (i !== j) expect(align(a, b).similarity, `${i} vs ${j}`).toBeLessThan(SIBLING_SIMILARITY);
      for (let k = 1; k < 5; k++) expect(align(a, generate(mazes.templates[i] as Template, k).instruction).similarity).toBeGreaterThanOrEqual(SIBLING_SIMILARITY);
    }
    for (const f of FAMILIES.filter((x) => x.name !== 'mazes'))
      for (const t of f.templates)
        for (let i = 0; i < 3; i++) {
          const inst = t.generate(seededRandom('visual', 0, `${f.name}/${t.id}/${i}`), i);
          expect(mazesSolver.match(inst.instruction), `${f.name}/${t.id}`).toBe(0);
        }
  });
});
