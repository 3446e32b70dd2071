// The charts family: seeded generation, siblings with different answers, every template's oracle solving its
// instances through the reference agent (replayed from a sibling's procedure), and the solver's keywords.
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../engine/random.ts';
import { ReferenceAgent } from '../../../envs/visual/agents/reference/agent.ts';
import { chartsSolver } from '../../../envs/visual/agents/reference/solvers/charts.ts';
import { SOLVERS } from '../../../envs/visual/agents/reference/solvers/index.ts';
import { checkAnswer } from '../../../envs/visual/check.ts';
import { charts } from '../../../envs/visual/families/charts.ts';
import { FAMILIES } from '../../../envs/visual/families/index.ts';
import { renderSvg } from '../../../envs/visual/render.ts';
import type { Template } from '../../../envs/visual/task.ts';
import { fitTicks, tickNumber } from '../../../envs/visual/tools/charts.ts';
import { closeVisualOcr } from '../../../envs/visual/tools/ocr.ts';

const generate = (t: Template, i: number, seed = 0) => t.generate(seededRandom('visual', seed, `charts/${t.id}/${i}`), i);
const world = { catalogue: [], pages: new Map() };

afterAll(async () => {
  await closeVisualOcr();
});

describe('charts family', () => {
  it('generates the same instance for the same seed and different answers for siblings', () => {
    expect(charts.templates.length).toBeGreaterThanOrEqual(4);
    for (const t of charts.templates) {
      expect(generate(t, 3)).toEqual(generate(t, 3));
      expect(generate(t, 3, 1).svg).not.toEqual(generate(t, 3).svg);
      const answers = new Set(Array.from({ length: 10 }, (_, i) => JSON.stringify(generate(t, i).answer.value)));
      expect(answers.size, t.id).toBeGreaterThanOrEqual(4);
      // Siblings share the procedure: the same oracle calls.
      expect(generate(t, 1).oracle).toEqual(generate(t, 2).oracle);
    }
  });

  it("solves two instances of every template (other arguments, other answers) by replaying a sibling's oracle procedure", async () => {
    const agent = new ReferenceAgent(SOLVERS);
    for (const t of charts.templates) {
      const sibling = generate(t, 9);
      const payload = ['Task: ' + sibling.instruction, 'Outcome: SUCCESS', 'Actions:', ...sibling.oracle.map((a, k) => `  ${k + 1}. ${a}`)].join('\n');
      for (const i of [0, 1]) {
        const inst = generate(t, i);
        const { png, width, height } = renderSvg(inst.svg);
        const run = await agent.run({ taskId: `charts-${t.id}-${i}`, instruction: inst.instruction, images: [{ name: 'chart.png', png, width, height }] }, { text: payload, images: [] }, world);
        expect(run.memoryUse, `${t.id}/${i}`).toMatch(/^replayed/);
        expect(checkAnswer(inst.answer, run.answer).correct, `${t.id}/${i}: ${checkAnswer(inst.answer, run.answer).note}`).toBe(true);
      }
    }
  }, 60_000);

  it("matches its own instructions and none of the other families'", () => {
    for (const t of charts.templates) expect(chartsSolver.match(generate(t, 0).instruction), t.id).toBeGreaterThan(0);
    for (const f of FAMILIES.filter((x) => x.name !== 'charts'))
      for (const t of f.templates) expect(chartsSolver.match(t.generate(seededRandom('visual', 0, `${f.name}/${t.id}/0`), 0).instruction), `${f.name}/${t.id}`).toBe(0);
  });

  it('reads tick numbers through OCR slips and fits past a misread one', () => {
    expect(tickNumber('1O0')).toBe(100);
    expect(tickNumber('25')).toBe(25);
    expect(tickNumber('abc')).toBeUndefined();
    const fit = fitTicks([
      { value: 100, yPx: 190 },
      { value: 80, yPx: 338 },
      { value: 6, yPx: 486 },
      { value: 40, yPx: 634 },
      { value: 0, yPx: 930 },
    ]);
    expect(fit?.ticks).toHaveLength(4);
    expect((fit?.a ?? 0) + (fit?.b ?? 0) * 486).toBeCloseTo(60, 1);
  });
});
