// exportRun(): a run's chosen program, with the memory it builds from the run's own environment, as an npm package
// or an MCP server. The environment is the one run.json recorded (a module is reopened from its path, and a
// change since the run is said in a note).
import type { Environment } from '../engine/environment/contract.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { exportProgram, type ExportOptions, type ExportResult } from '../export/export.ts';
import type { RunInfo } from '../run-store/run-folder.ts';
import { reopenEnv } from './environments.ts';

export type ExportRunOptions = Omit<ExportOptions, 'openEnv'>;

export async function exportRun(o: ExportRunOptions): Promise<ExportResult> {
  const onNote = o.onNote ?? (() => undefined);
  const openEnv = async (run: RunInfo, images: ImageStore, models: ResolvedModels): Promise<Environment> =>
    (await reopenEnv(run.envSource, run.options.env, { models, images, seed: 0, onNote, ...(run.options.data ? { data: run.options.data } : {}) })).env;
  return exportProgram({ ...o, openEnv });
}
