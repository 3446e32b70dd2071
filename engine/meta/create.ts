// The meta agent for a run: the model one when asked (and configured), else the offline mutator.
import type { ResolvedModels } from '../llm/models.ts';
import { type ClusteringMode, ModelMetaAgent, type ModelMetaOptions } from './model/agent.ts';
import { OfflineMetaAgent } from './offline/agent.ts';
import type { MetaAgent } from './types.ts';

export function createMetaAgent(kind: 'model' | 'offline', models: ResolvedModels, options: ModelMetaOptions | ClusteringMode = {}): MetaAgent {
  if (kind === 'model') {
    if (!models.meta) throw new Error('the model meta agent needs AUTOMEMO_META_MODEL');
    return new ModelMetaAgent(models.meta, options);
  }
  return new OfflineMetaAgent();
}
