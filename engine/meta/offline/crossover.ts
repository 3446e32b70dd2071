// Crossover, only where it is exact: a stage of another program of the tree, taken as that program runs it, or the way
// another design cuts, indexes and finds its units (its store options). A donor that is a standard design is read
// through its exact form (designs.ts), so what is taken is what the design does, not an approximation of it.
import type { Edit, OfflineParent } from '../types.ts';
import type { Candidate } from './candidate.ts';
import { exactFormOf } from './designs.ts';
import type { Reading } from './reading.ts';
import { STAGES, storeDefault } from './stage-catalogue.ts';
import { type Pipeline, readPipeline } from './stage-edit.ts';
import { usable } from './structural.ts';

/** The donor's pipeline: its own, or its design's exact form when it is that design. */
function donorPipeline(donor: NonNullable<OfflineParent['donors']>[number]): Pipeline | undefined {
  return readPipeline(donor.files) ?? (() => {
    const form = exactFormOf(donor.design, donor.files);
    return form ? readPipeline(form.files) : undefined;
  })();
}

export function crossoverCandidates(ctx: OfflineParent, pipeline: Pipeline, r: Reading): Candidate[] {
  const texts = pipeline.stages.map((s) => s.text);
  const out: Candidate[] = [];
  for (const donor of ctx.donors ?? []) {
    const theirs = donorPipeline(donor);
    if (!theirs) continue;
    const better = Math.max(0, donor.q - ctx.q);
    const differing = theirs.stages.filter((s) => !texts.includes(s.text) && (STAGES[s.name] === undefined || usable(STAGES[s.name], r, theirs)));
    for (const s of differing) {
      const same = pipeline.stages.findIndex((x) => x.name === s.name && s.name !== 'routeByKind');
      out.push({
        mode: 'crossover',
        weight: (0.5 + 8 * better) / Math.max(1, differing.length / 2),
        why: `${donor.node}${donor.design ? ` (${donor.design})` : ''} scores ${donor.q.toFixed(3)}`,
        what: `${same >= 0 ? `replace ${texts[same]} with` : 'take'} ${s.text} from ${donor.node}`,
        edits: [{ kind: 'crossover-stage', key: s.name, from: same >= 0 ? (texts[same] as string) : '', to: s.text, donor: donor.node }],
      });
    }
    // A better design of another kind: its way of cutting, indexing and finding units, in this pipeline.
    if (!donor.design || donor.design === ctx.design || better <= 0) continue;
    const changed = Object.entries(theirs.store).filter(([k, v]) => (pipeline.store[k] ?? storeDefault(k)) !== v);
    if (!changed.length) continue;
    const stores = changed.map(([k, v]): Edit => ({ kind: 'store', key: k, from: pipeline.store[k] ?? storeDefault(k) ?? '', to: v }));
    out.push({
      mode: 'crossover',
      weight: 0.5 + 8 * better,
      why: `${donor.node} (${donor.design}) scores ${donor.q.toFixed(3)} against ${ctx.q.toFixed(3)}`,
      what: `units as ${donor.design} finds them (${changed.map(([k, v]) => `${k} ${v}`).join(', ')})`,
      edits: [{ kind: 'crossover-design', key: donor.design, from: '', to: donor.design, donor: donor.node }, ...stores],
    });
  }
  return out;
}
