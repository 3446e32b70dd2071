import { resolveModels } from '../../../../engine/llm/models.ts';
import { createHostServices, closeHostServices } from '../../../../sandbox/primitives/index.ts';
import { WebEnvironment } from '../../environment.ts';
const models = resolveModels({}, {});
const services = createHostServices(models);
const env = await WebEnvironment.load({ models, images: services.images, sites: ['recipes'] });
const only = process.argv[2];
const mode = process.argv[3] ?? 'oracle';
for (const t of env.tasks.filter((x) => x.role === 'test' && (!only || x.template.id === only))) {
  const payload = mode === 'oracle' ? env.oraclePayload(t.id) : { text: '', images: [] };
  const r = await env.episode(t, payload);
  console.log(t.template.id, t.instance, r.check.correct ? 'OK ' : 'BAD', r.check.note, '|', r.memoryUse);
  if (!r.check.correct) for (const s of r.steps) console.log('     ', s.action, s.error ? `[ERR ${s.error.slice(0, 100)}]` : '');
}
await env.close(); await closeHostServices?.(services as any);
process.exit(0);
