// The standard designs as pipelines of automemo/lib's stages: how each cuts, indexes and finds its units, and how it
// packs them. A design that is not a pipeline (bm25, trajectory retrieval, …) cannot be edited stage by stage; its
// pipeline form can, so the offline agent crosses a good design into the pipeline (the pipeline's machinery with that
// design's way of finding things) and searches on from there. Designs it does not know keep the pipeline seed's own.
import { readProgramFiles } from '../../../memo-programs/files.ts';
import { resolveProgram } from '../../../memo-programs/registry.ts';
import type { ProgramFiles } from '../types.ts';
import { writeStages, writeStoreOption } from './stage-edit.ts';

export interface PipelineForm {
  /** Options of `new UnitStore({ … })`, as source text. */
  store: Record<string, string>;
  stages: string[];
  /** What it keeps of the design, in a clause. */
  keeps: string;
}

const PLAIN = "packWhole({ render: 'plain', groupBy: 'source' })";

export const PIPELINE_FORMS: Record<string, PipelineForm> = {
  bm25: { store: { units: "'steps'", index: "'bm25'" }, stages: ['bm25Stage({ k: 40 })', PLAIN], keeps: 'whole steps found by BM25, shown under their episode' },
  dense: { store: { units: "'steps'", index: "'dense'" }, stages: ['denseStage({ k: 40 })', PLAIN], keeps: 'whole steps found by embeddings, shown under their episode' },
  'trajectory-retrieval': {
    store: { units: "'episodes'", index: "'dense'", findBy: "'instruction'" },
    stages: ['denseStage({ k: 3 })', "packWhole({ render: 'plain', groupBy: 'rank' })"],
    keeps: 'whole past episodes found by how alike their instructions are',
  },
  'reasoning-bank': { store: { units: "'episodes'", index: "'both'" }, stages: ['bm25Stage({ k: 20 })', 'denseStage({ k: 20 })', 'rrfFuse({ k: 60 })', "packWhole({ render: 'plain', groupBy: 'rank' })"], keeps: 'whole past episodes, found lexically and densely' },
  'g-memory': { store: { units: "'steps'", index: "'both'" }, stages: ['denseStage({ k: 40 })', 'graphExpand({ seeds: 5, per: 3, decay: 0.5 })', PLAIN], keeps: 'steps found densely, with the steps linked to them' },
  'omni-simplemem': {
    store: { units: "'steps'", index: "'both'" },
    stages: ['bm25Stage({ k: 40 })', 'denseStage({ k: 40 })', 'rrfFuse({ k: 60 })', 'neighbourExpand({ before: 1, after: 1, seeds: 10, decay: 0.7 })', "packWhole({ render: 'compact', groupBy: 'time' })"],
    keeps: 'hybrid lexical and dense search with the neighbouring steps',
  },
};

/** The design a pipeline form exists for, given a design name; undefined for pipelines and unknown programs. */
export function formOf(design: string | undefined): PipelineForm | undefined {
  return design !== undefined && Object.hasOwn(PIPELINE_FORMS, design) ? PIPELINE_FORMS[design] : undefined;
}

/** The pipeline seed written in a design's form. */
export function pipelineIn(form: PipelineForm): ProgramFiles {
  let files = readProgramFiles(resolveProgram('pipeline').path);
  files = writeStages(files, form.stages);
  for (const [key, value] of Object.entries(form.store)) files = writeStoreOption(files, key, value);
  return files;
}
