// The edits that give a pipeline what the standard designs do differently, each offered where the benchmark's data
// supports it (data-shape.ts), never by the benchmark's name: the outcome's feedback kept and shown (where update
// episodes carry notes); units filed and found by the entity they concern (where episodes name one — a customer, a
// site, a speaker — and failed tasks name one too); the latest state of a fact first (where tasks ask for it); each
// choice's evidence looked for and shown (where tasks list choices; the payload never names a choice); whole past
// tasks as procedures, with their feedback; insights and an episode index (G-Memory's tiers) for past tasks. Each is
// one candidate of typed edits, several where the stage needs the store set up for it.
import type { Edit, OfflineParent } from '../types.ts';
import type { Candidate } from './candidate.ts';
import type { EntityEvidence } from './data-shape.ts';
import type { Reading } from './reading.ts';
import { literal, storeDefault } from './stage-catalogue.ts';
import type { Pipeline } from './stage-edit.ts';
import { type Pressure, pressure } from './structural.ts';

const store = (key: string, from: string, to: string): Edit => ({ kind: 'store', key, from, to });
const insert = (name: string): Edit => ({ kind: 'stage-insert', key: name, from: '', to: `${name}()` });

const evidence = (weight: number, why: string, what: string, edits: Edit[]): Candidate => ({
  mode: 'evidence',
  weight,
  why,
  what,
  edits,
});

/** What the edits read of a pipeline: a store option's text (single quotes), whether a stage is in it. */
interface PipelineView {
  pipeline: Pipeline;
  opt: (key: string) => string;
  has: (name: string) => boolean;
}

function viewOf(pipeline: Pipeline): PipelineView {
  return {
    pipeline,
    opt: (key) => (pipeline.store[key] ?? storeDefault(key) ?? '').replace(/"/g, "'"),
    has: (name) => pipeline.stages.some((s) => s.name === name),
  };
}

export function vocabularyCandidates(_ctx: OfflineParent, pipeline: Pipeline, r: Reading): Candidate[] {
  const shape = r.shape;
  if (!shape) return [];
  const v = viewOf(pipeline);
  const p = pressure(r);
  return [
    ...noteEdits(v, shape, p),
    // Units filed by the entity they concern, and a task's searches kept to (or led by) its entity's units.
    ...shape.entities.slice(0, 2).flatMap((e) => entityEdits(e, v)),
    ...latestEdits(v, r, p),
    ...choiceEdits(v, shape),
    ...(shape.tasksWithOutcomes ? pastTaskEdits(v, shape, p) : []),
  ];
}

type Shape = NonNullable<Reading['shape']>;

/** The outcome's feedback: the checker's note kept, as a unit of its own or a line of an episode unit, and shown. */
function noteEdits({ pipeline, opt }: PipelineView, shape: Shape, p: Pressure): Candidate[] {
  if (shape.notes < 0.1) return [];
  // Failed tasks whose payload lacked the answer: what a memory that keeps more of the right thing fixes.
  const missing = p.traced ? p.recall + p.cut + p.neighbour : 0.5;
  const pack = pipeline.stages.find((s) => s.name === 'packWhole');
  const grouped = !pack || (pack.options.layout ?? "'grouped'").replace(/"/g, "'") === "'grouped'";
  const why = `${Math.round(100 * shape.notes)}% of update episodes carry the checker's note, and ${Math.round(100 * missing)}% of traced failures lacked the answer`;
  const weight = 1 + 2 * shape.notes + 2 * missing;
  if (opt('notes') !== 'true') {
    const keep = store('notes', opt('notes'), 'true');
    return [
      evidence(weight, why, "keep the outcome's note (feedback) in memory", [keep]),
      ...(grouped && pack
        ? [
            evidence(0.9 * weight, why, "keep the outcome's note and show it under each episode", [
              keep,
              { kind: 'stage-tune', key: 'packWhole.notes', from: pack.options.notes === 'true', to: true },
            ]),
          ]
        : []),
    ];
  }
  if (!grouped || !pack || pack.options.notes === 'true') return [];
  return [
    evidence(weight, why, "show each episode's feedback under its heading", [
      { kind: 'stage-tune', key: 'packWhole.notes', from: false, to: true },
    ]),
  ];
}

/** The latest state of a fact first, where tasks ask for it. */
function latestEdits({ has }: PipelineView, r: Reading, p: Pressure): Candidate[] {
  if (r.asks.latest < 0.05 || has('preferLatest')) return [];
  return [
    evidence(
      0.5 + 4 * r.asks.latest * (0.3 + p.precision),
      `${Math.round(100 * r.asks.latest)}% of tasks ask for the current or latest state`,
      'insert preferLatest()',
      [insert('preferLatest')],
    ),
  ];
}

/** Each choice's evidence looked for and shown: memory for every choice, none named. */
function choiceEdits({ has }: PipelineView, shape: Shape): Candidate[] {
  if (shape.choices < 0.3) return [];
  // Looking for each choice's evidence helps where failed payloads lacked the gold choice's; where they showed it
  // beside another choice as fully, evidence for every choice crowds them further (it lost on every multiple-choice
  // benchmark whose failures were of that kind): a hint for the sweep's tier then, not the evidence's first move.
  const cm = shape.choiceMisses;
  const read = cm.failed >= 3;
  const lacking = read ? cm.absent : 0.5;
  const why = read
    ? `${Math.round(100 * shape.choices)}% of tasks list choices; of ${cm.failed} failed ones, ${Math.round(100 * cm.absent)}% of payloads lacked the gold choice's words and ${Math.round(100 * cm.crowded)}% showed another choice as fully`
    : `${Math.round(100 * shape.choices)}% of tasks list choices`;
  const weight = shape.choices * (0.3 + 2 * lacking);
  const out: Candidate[] = [];
  if (!has('choiceQueries') && !has('choiceEvidence'))
    out.push(
      evidence(weight, why, "search for each choice's evidence and show it", [
        insert('choiceQueries'),
        insert('choiceEvidence'),
      ]),
    );
  if (!has('choiceEvidence'))
    out.push(evidence(0.9 * weight, why, "each choice's best evidence to the front", [insert('choiceEvidence')]));
  if (!has('choiceQueries')) out.push(evidence(0.8 * weight, why, 'one query per choice', [insert('choiceQueries')]));
  return out;
}

/** Where update episodes are tasks with outcomes: whole past tasks, distilled items, G-Memory's tiers. */
function pastTaskEdits({ opt, has }: PipelineView, shape: Shape, p: Pressure): Candidate[] {
  const out: Candidate[] = [];
  // Whole past tasks as their trajectories (outcome, feedback, actions), where the units are not whole episodes yet.
  if (opt('units') !== "'episodes'") {
    const edits = [
      store('units', opt('units'), "'episodes'"),
      store('episodeText', opt('episodeText'), "'trajectory'"),
    ];
    if (shape.notes >= 0.1 && opt('notes') !== 'true') edits.push(store('notes', opt('notes'), 'true'));
    out.push(
      evidence(
        1.5 + p.precision,
        'update episodes are tasks with outcomes: a whole past task, its outcome and feedback, is what the agent follows',
        'whole past tasks as trajectories',
        edits,
      ),
    );
  }
  if (opt('units') !== "'items'")
    out.push(
      evidence(
        0.5,
        'update episodes are tasks with outcomes: their strategies and lessons, distilled',
        'units as distilled items (strategies, lessons)',
        [store('units', opt('units'), "'items'")],
      ),
    );
  // G-Memory's tiers: the insights of the past tasks found, above their units; those tasks found first by their instruction.
  if (opt('insights') !== 'true' && !has('insightsPreamble'))
    out.push(
      evidence(0.6, 'past tasks leave insights to carry over', 'insights of the tasks found, above the units', [
        store('insights', opt('insights'), 'true'),
        insert('insightsPreamble'),
      ]),
    );
  if (opt('episodeIndex') !== 'true' && !has('episodeSearch'))
    out.push(
      evidence(
        0.5,
        'past tasks like this one hold its procedure',
        'find past tasks by their instruction first, then their units',
        [store('episodeIndex', opt('episodeIndex'), 'true'), insert('episodeSearch')],
      ),
    );
  return out;
}

/** Filing by an entity, then searches kept to its units (filter) or led by them (boost). */
function entityEdits(e: EntityEvidence, { pipeline, opt, has }: PipelineView): Candidate[] {
  const weight = 1 + 3 * e.failedNaming;
  const out: Candidate[] = [];
  const filed = opt('entity');
  const wanted = literal(e.source);
  const setUp: Edit[] = [];
  if (filed !== wanted) setUp.push(store('entity', filed, wanted));
  if (e.source === 'meta' && e.field && (pipeline.store.entityMeta ?? '').replace(/"/g, "'") !== literal(e.field))
    setUp.push(store('entityMeta', pipeline.store.entityMeta ?? "''", literal(e.field)));
  if (!setUp.length && filed === "'none'") return out;
  const by = e.field ? `${e.source} ${e.field}` : e.source;
  // A speaker's own turns are not all a question about them needs: the boost, not the filter, leads there.
  const [first, second] =
    e.source === 'speaker' ? (['entityBoost', 'entityFilter'] as const) : (['entityFilter', 'entityBoost'] as const);
  for (const [i, stage] of [first, second].entries()) {
    if (has(stage)) continue;
    out.push({
      mode: 'evidence',
      weight: weight * (i === 0 ? 1 : 0.9),
      why: e.why,
      what: `file units by ${by}, ${stage === 'entityFilter' ? "search only the task's entity's units" : "its entity's units first"}`,
      edits: [...setUp, insert(stage)],
    });
  }
  return out;
}
