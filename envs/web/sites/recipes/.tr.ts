import { evaluateProgram } from '../../../../engine/evaluate/evaluate.ts';
import { resolveModels } from '../../../../engine/llm/models.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';
import { compileProgram } from '../../../../sandbox/compile.ts';
import { closeHostServices, createHostServices } from '../../../../sandbox/primitives/index.ts';
import { WebEnvironment } from '../../environment.ts';
const models = resolveModels({}, {});
const services = createHostServices(models);
const env = await WebEnvironment.load({ models, images: services.images, sites: ['recipes'], concurrency: 1 });
const eps = await env.trainingEpisodes();
for (const [id, ep] of eps) console.log('train', env.scenario(id), (ep as any).outcome?.success ?? JSON.stringify((ep as any).outcome ?? {}).slice(0, 80));
const c = await compileProgram({ entryPath: resolveProgram(process.argv[2] ?? 'trajectory-retrieval').path });
if (!c.ok) throw new Error('compile');
const result = await evaluateProgram(c.program, { env, split: 'test', services, taskConcurrency: Number(process.argv[3] ?? 1) });
const by = new Map<string, number[]>();
for (const t of result.tasks) { by.set(t.scenario, [...(by.get(t.scenario) ?? []), t.reward ?? -1]); if (!t.reward) console.log('  ', t.scenario, t.note); }
for (const [k, v] of by) console.log(k, v.filter((x) => x === 1).length, '/', v.length);
await env.close(); await closeHostServices();
process.exit(0);
