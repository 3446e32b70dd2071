import { hashedRandom } from '../../../../engine/random.ts';
import { buildCatalog } from '../../catalog.ts';
import { recipesSite } from './index.ts';
const tasks = buildCatalog([recipesSite as any], { seed: 0, instances: 15, trainShare: 0.2 });
for (const t of recipesSite.templates) {
  const rows = tasks.filter((x) => x.template.id === t.id).map((x) => `${x.role[0]}${hashedRandom('web-reference', x.id)().toFixed(2)}`);
  console.log(t.id.padEnd(20), rows.join(' '));
}
