// exportRun(): a run's chosen program, with the memory it builds from the run's own environment, as an npm package
// or an MCP server. The environment is the one run.json recorded: its module or data as they are when unchanged,
// else the run's copy of them (run-store/env-copy.ts); an environment that changed with no copy to stand in is
// refused, since the memory would not come from the environment the scores did. A run this user's automemo did not
// make runs no environment code without trustRun (api/run-trust.ts).
import type { Environment } from '../engine/environment/contract.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { readEnvCopy } from '../run-store/env-copy.ts';
import { exportProgram, type ExportOptions, type ExportResult, shippedLine } from '../export/export.ts';
import type { RunInfo } from '../run-store/run-folder.ts';
import { seedsOf } from '../engine/search/run-options.ts';
import { openEnv } from './environments.ts';
import { checkOptions, type OptionValues, withDefaults } from './options/derive.ts';
import { checkRunTrust } from './run-trust.ts';

export type { ExportResult };
export { shippedLine };

/** exportRun(): the options declared for `export` (the run, the node, the folder, the format, …). */
export type ExportRunOptions = OptionValues<'export'> & Pick<ExportOptions, 'onNote'>;

export async function exportRun(given: ExportRunOptions): Promise<ExportResult> {
  checkOptions('export', given);
  const { trustRun, ...o } = withDefaults('export', given);
  const onNote = o.onNote ?? (() => undefined);
  const openRunEnv = async (run: RunInfo, images: ImageStore, models: ResolvedModels): Promise<Environment> => {
    checkRunTrust(o.run, run.envSource, run.options.env, trustRun, 'exporting it', onNote);
    const copy = readEnvCopy(o.run);
    const opened = await openEnv(
      { recorded: run.envSource, ...(copy ? { copy } : {}) },
      {
        models,
        images,
        seed: seedsOf(run.options).split,
        onNote,
        ...(run.options.data ? { data: run.options.data } : {}),
      },
    );
    if (opened.changed && !copy) {
      await opened.env.close?.();
      throw new Error(
        `${opened.changed.replace(/; using it as it is now$/, '')}, and the run has no copy of it: the memory would not come from the environment its scores did. Put it back as it was to export this run`,
      );
    }
    if (opened.changed) onNote(opened.changed);
    return opened.env;
  };
  return exportProgram({ ...o, openEnv: openRunEnv });
}
