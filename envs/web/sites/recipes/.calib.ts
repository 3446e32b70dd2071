import { seededRandom } from '/work/main/engine/random.ts';
import { align } from '/work/main/envs/experience.ts';
import { adaptAction, datePairs } from '/work/main/envs/web/agents/reference/memory.ts';
import { recipesSolver } from '/work/main/envs/web/agents/reference/solvers/recipes.ts';
import type { SolveContext } from '/work/main/envs/web/agents/reference/solver.ts';
import { closeBrowsers } from '/work/main/envs/web/browser/browser.ts';
import { instantiate } from '/work/main/envs/web/catalog.ts';
import { runEpisode } from '/work/main/envs/web/episode.ts';
import type { Session } from '/work/main/envs/web/session.ts';
import { recipesSite } from '/work/main/envs/web/sites/recipes/index.ts';

const mode = process.argv[2] ?? 'none';
const only = process.argv[3];
const ctxOf = (s: Session, instruction: string, id: string): SolveContext => ({
  instruction, site: 'recipes', page: () => s.page(), act: (l, t) => s.act(l, t), stepsLeft: () => s.stepsLeft(), random: seededRandom(id), avoid: [],
});
for (const t of recipesSite.templates) {
  if (only && t.id !== only) continue;
  let ok = 0; const notes: string[] = [];
  for (let i = 3; i < 15; i++) {
    const spec = instantiate(recipesSite as any, t as any, i, 0);
    const sib = instantiate(recipesSite as any, t as any, 0, 0);
    const agent = {
      id: 'x', deterministic: true, mode: 'offline' as const,
      async run(_in: any, _p: any, s: Session) {
        const ctx = ctxOf(s, spec.instruction, `recipes/${t.id}/${i}`);
        let ans: string | undefined;
        if (mode === 'none') ans = await recipesSolver.generic(ctx);
        else {
          const { mapping } = align(spec.instruction, sib.instruction);
          for (const l of sib.oracle.slice(0, -1)) { const a = adaptAction(l, mapping, datePairs(sib.instruction, spec.instruction)); if (a) await s.act(a); }
          ans = await recipesSolver.finish(ctx);
        }
        s.finish(ans ?? '');
        return { memoryUse: mode };
      },
    };
    const r = await runEpisode(recipesSite as any, spec, agent, { taskId: 'x', site: 'recipes', siteTitle: 'RecipeBox', instruction: spec.instruction }, { text: '', images: [] }, { seed: 0, screenshots: false });
    if (r.check.correct) ok++; else notes.push(`${i}: ${r.check.note} | ${r.steps.map((x) => x.action + (x.error ? ' [ERR ' + x.error.slice(0, 60) + ']' : '')).join(' / ')}`);
  }
  console.log(t.id, mode, `${ok}/12`);
  if (process.env.V) for (const n of notes) console.log('   ', n);
}
await closeBrowsers();
