// The lookup family: deterministic scenes, distinct sibling answers, a catalogue whose logos the image search
// tells apart, the oracle procedure solving every template through the reference agent, and a solver that
// claims only its own instructions.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../engine/random.ts';
import { ReferenceAgent } from '../../../envs/visual/agents/reference/agent.ts';
import { SOLVERS } from '../../../envs/visual/agents/reference/solvers/index.ts';
import { lookupSolver } from '../../../envs/visual/agents/reference/solvers/lookup.ts';
import { buildCatalog, buildWorld, type CatalogEntry } from '../../../envs/visual/catalog.ts';
import { checkAnswer } from '../../../envs/visual/check.ts';
import { lookup } from '../../../envs/visual/families/lookup.ts';
import { microtext } from '../../../envs/visual/families/microtext.ts';
import { FAMILIES } from '../../../envs/visual/families/index.ts';
import { runTool } from '../../../envs/visual/tools/index.ts';
import type { ImageSearchData } from '../../../envs/visual/tools/lookup.ts';

const world = buildWorld([lookup], 0);
const entries = buildCatalog([lookup], { seed: 0, instances: 10, trainShare: 0.2 });
const byTemplate = (id: string) => entries.filter((e) => e.task.template === id);
const ctxOf = (e: CatalogEntry) => ({ images: e.task.images, world });

/** The payload the benchmark's oracle figure uses: a training sibling's correct procedure. */
function oraclePayloadText(e: CatalogEntry): string {
  const sibling = entries.find((x) => x.role !== 'test' && x.task.template === e.task.template) as CatalogEntry;
  return ['Task: ' + sibling.task.instruction, 'Outcome: SUCCESS', 'Actions:', ...sibling.task.oracle.map((a, i) => `  ${i + 1}. ${a}`)].join('\n');
}

describe('lookup family', () => {
  it('generates the same scene for a seed and has at least four templates', () => {
    expect(lookup.templates.length).toBeGreaterThanOrEqual(4);
    for (const t of lookup.templates) {
      const a = t.generate(seededRandom('visual', 0, t.id), 3);
      const b = t.generate(seededRandom('visual', 0, t.id), 3);
      expect(a).toEqual(b);
    }
  });

  it('never gives two siblings the same answer', () => {
    for (const t of lookup.templates) {
      const answers = byTemplate(t.id).map((e) => JSON.stringify(e.task.answer));
      expect(new Set(answers).size, t.id).toBe(answers.length);
    }
  });

  it('keeps the world: one page per catalogue logo, scenes at least 1200 px wide', () => {
    expect(world.catalogue.length).toBeGreaterThanOrEqual(24);
    for (const c of world.catalogue) expect(world.pages.get(c.id)?.fields.Founded).toBeDefined();
    for (const e of entries) expect(e.task.images[0]?.width).toBeGreaterThanOrEqual(1200);
  });

  it('image_search finds a slot’s logo, matches the whole scene poorly and lists its marks', async () => {
    const e = entries[0] as CatalogEntry;
    const whole = await runTool('image_search [0,0,999,999]', ctxOf(e));
    const data = whole.result?.data as ImageSearchData;
    expect(data.matched).toBe(false);
    expect(data.marks.length).toBeGreaterThan(1);
    const slot = await runTool(e.task.oracle[0] as string, ctxOf(e));
    expect((slot.result?.data as ImageSearchData).matched).toBe(true);
    const visit = await runTool(e.task.oracle[1] as string, ctxOf(e));
    expect(checkAnswer(e.task.answer, (visit.result?.data as { field?: { value: string } }).field?.value).correct).toBe(true);
    expect((await runTool('visit no-such-page', ctxOf(e))).error).toMatch(/no page/);
    expect((await runTool(`${e.task.oracle[1]}x`, ctxOf(e))).error).toMatch(/no field/);
  });

  it('tells every catalogue logo apart from the others', async () => {
    // Each logo pasted alone into a blank scene-sized image must come back as itself.
    const { default: sharp } = await import('sharp');
    for (const c of world.catalogue.slice(0, 12)) {
      const logo = await sharp(c.png).resize(72, 72).png().toBuffer();
      const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#fbf7ee' } })
        .composite([{ input: logo, left: 160, top: 110 }])
        .png()
        .toBuffer();
      const r = await runTool('image_search [300,250,700,750]', { images: [{ name: 'x.png', png, width: 400, height: 300 }], world });
      const data = r.result?.data as ImageSearchData;
      expect(data.hits[0]?.id, c.id).toBe(c.id);
      expect(data.matched).toBe(true);
      expect((data.hits[1]?.similarity ?? 0) < 0.6).toBe(true);
    }
  });

  it('solves at least three instances of every template with the oracle payload', async () => {
    const agent = new ReferenceAgent(SOLVERS);
    for (const t of lookup.templates) {
      let solved = 0;
      for (const e of byTemplate(t.id).slice(0, 4)) {
        const run = await agent.run({ taskId: e.task.id, instruction: e.task.instruction, images: e.task.images }, { text: oraclePayloadText(e), images: [] }, world);
        if (checkAnswer(e.task.answer, run.answer).correct) solved++;
      }
      expect(solved, t.id).toBeGreaterThanOrEqual(3);
    }
  });

  it('claims its own instructions and no other family’s', () => {
    for (const e of entries) expect(lookupSolver.match(e.task.instruction), e.task.instruction).toBeGreaterThan(0);
    const others = [microtext, ...FAMILIES.filter((f) => f.name !== 'lookup' && f.name !== 'microtext')];
    for (const f of others)
      for (const t of f.templates)
        for (let i = 0; i < 3; i++) {
          const instruction = t.generate(seededRandom('visual', 0, `${f.name}/${t.id}/${i}`), i).instruction;
          expect(lookupSolver.match(instruction), instruction).toBe(0);
        }
  });
});
