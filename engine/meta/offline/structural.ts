// Structural edits of a pipeline program: the offline agent adds, removes, swaps and tunes stages, changes how
// units are cut, found and packed, routes a kind of task to a stage of its own, or takes a part from a better program
// of the tree (crossover: a stage of a pipeline, or the way another design finds its units). Every edit is weighted by
// what the benchmark in front of it shows (reading.ts): failed tasks whose payload held the answer call for less and
// sharper payloads, failed tasks whose payload missed it for more recall, gold units ranked but cut for packing; edits
// that assume dialogue turns are offered only on dialogue data, whole past episodes only where episodes are tasks with
// outcomes. History scales each edit (inert everywhere → almost never, helped somewhere → more). A parent's children
// take the untried edits in order of weight, so the typed space is searched systematically rather than one tweak
// repeated.
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import { type Edit, type EditOutcome, type OfflineParent, sameEdits } from '../types.ts';
import { formOf } from './designs.ts';
import type { FailedKind } from './miss-analysis.ts';
import type { Reading } from './reading.ts';
import { insertionIndex, phaseOf, STAGES, type StageInfo, STORE_OPTIONS, type Tunable } from './stage-catalogue.ts';
import { type Pipeline, readPipeline, type StageCall, withOption, writeStages, writeStoreOption } from './stage-edit.ts';

export interface StructuralEdit {
  /** The evidence that led to it, in a clause. */
  why: string;
  /** What changed, in a clause. */
  what: string;
  /** What it changes, typed; the first edit says what kind of edit it is. */
  edits: Edit[];
  files: ProgramFiles;
}

export interface Candidate {
  weight: number;
  why: string;
  what: string;
  edits: Edit[];
  make: () => ProgramFiles;
}

/** What `new UnitStore({ … })` uses for an option the program does not set. */
const STORE_DEFAULTS: Record<string, string> = { units: "'steps'", index: "'both'", findBy: "'content'", window: '1' };

/** Stages a failing kind of dialogue question is routed to. */
const ROUTES: Record<Exclude<FailedKind, 'other'>, string> = {
  time: 'timeBoost({ span: 1.5, when: 1.4 })',
  entities: 'entityQueries({ weight: 0.6 })',
  count: 'neighbourExpand({ before: 1, after: 2, seeds: 15, decay: 0.8 })',
  reason: 'neighbourExpand({ before: 2, after: 1, seeds: 10, decay: 0.8 })',
};

const FUSES = ['rrfFuse', 'weightedFuse', 'maxFuse'];
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A new value of an option, moved `up` or down within its range by a factor; undefined when it cannot move. */
export function movedOption(t: Tunable, current: string, up: boolean, random: () => number): string | undefined {
  if (t.kind === 'enum') {
    const others = t.values.filter((v) => v.replace(/"/g, "'") !== current.replace(/"/g, "'"));
    return others.length ? others[Math.floor(random() * others.length)] : undefined;
  }
  const v = Number(current);
  if (!Number.isFinite(v)) return undefined;
  const factor = 1.4 + 0.4 * random();
  let next = up ? v * factor : v / factor;
  if (t.kind === 'int') next = up ? Math.max(v + 1, Math.round(next)) : Math.min(v - 1, Math.round(next));
  else next = round2(next);
  next = Math.min(t.max, Math.max(t.min, next));
  return next === v ? undefined : String(next);
}

interface KeyHistory {
  tries: number;
  inert: number;
  helped: number;
  best: number;
}

/**
 * What history knows an edit by: its kind and key, and for a UnitStore option the value it was set to (each value of
 * units, index or findBy is a move of its own, as each fusion swapped in is). A Map key, never read back.
 */
export function historyKey(e: Edit): string {
  return JSON.stringify(e.kind === 'store' ? [e.kind, e.key, e.to] : [e.kind, e.key]);
}

function learnKeys(history: EditOutcome[]): Map<string, KeyHistory> {
  const out = new Map<string, KeyHistory>();
  for (const h of history) {
    for (const e of h.edits) {
      const key = historyKey(e);
      const s = out.get(key) ?? { tries: 0, inert: 0, helped: 0, best: -Infinity };
      s.tries++;
      if (Math.abs(h.delta) < 1e-9) s.inert++;
      else if (h.delta > 0) s.helped++;
      s.best = Math.max(s.best, h.delta);
      out.set(key, s);
    }
  }
  return out;
}

/**
 * How history scales an edit's weight: inert everywhere → almost never; each time it helped → more, each time it did
 * nothing or hurt → less, so an edit that helped once and then did nothing (k raised again and again) fades.
 */
function historyFactor(h: KeyHistory | undefined): number {
  if (!h) return 1;
  if (h.inert === h.tries) return 0.05;
  const hurt = h.tries - h.inert - h.helped;
  return Math.max(0.05, ((1 + 2 * h.helped) * (1 + 10 * Math.max(0, h.best))) / (1 + 2 * h.inert + hurt));
}

/** The evidence as shares: recall (the answer was missing), precision (it was there, among too much), cut, beside. */
export interface Pressure {
  recall: number;
  precision: number;
  cut: number;
  neighbour: number;
  /** Share of traced failed tasks that found one of their facts and missed another. */
  hop: number;
  line: string;
}

export function pressure(r: Reading): Pressure {
  const m = r.misses.misses;
  const units = m.cut + m.neighbour + m.unseen;
  const unitLine = units ? ` (gold units: ${m.cut} ranked but cut, ${m.neighbour} next to a shown unit, ${m.unseen} never found)` : '';
  const repeats = r.repeats >= 0.05 ? `; ${Math.round(100 * r.repeats)}% of payload lines repeat another` : '';
  // Of the answers missing from payloads, the gold units say why: never found (recall), ranked but cut (packing),
  // beside a shown unit (expansion); without unit ids, missing counts as recall.
  const hop = r.misses.traced ? r.misses.split / r.misses.traced : 0;
  const splitLine = r.misses.split ? `; ${r.misses.split} found one of their facts and missed another` : '';
  const split = units ? { recall: m.unseen / units, cut: m.cut / units, neighbour: m.neighbour / units } : { recall: 1, cut: 0, neighbour: 0 };
  if (r.traced >= 3) {
    const found = r.found / r.traced;
    const missing = 1 - found;
    return { recall: missing * split.recall, precision: found, cut: missing * split.cut, neighbour: missing * split.neighbour, hop, line: `of ${r.failed} failed tasks, ${r.found} had the answer in the payload and ${r.missing} did not${unitLine}${splitLine}${repeats}` };
  }
  if (units) return { ...split, precision: 0.2, hop, line: `of ${r.failed} failed tasks' gold units: ${m.cut} ranked but cut, ${m.neighbour} next to a shown unit, ${m.unseen} never found${splitLine}${repeats}` };
  return { recall: 0.5, precision: 0.3, cut: 0.2, neighbour: 0.1, hop: 0, line: `${r.failed} of ${r.scored} tasks failed, with nothing to trace: trying the next untried setting${repeats}` };
}

/** The kind of question a stage acts on (the rest it leaves alone), as the reading counts them. */
const ASKED_BY: Record<string, keyof Reading['asks']> = { timeBoost: 'time', recencyBoost: 'latest', entityQueries: 'names' };

/** Share of the validation tasks that ask what a stage acts on; 0 for a stage that acts on every task. */
const askedShare = (name: string, r: Reading) => (ASKED_BY[name] ? r.asks[ASKED_BY[name]] : 0);

/** Does the data have what a stage needs? */
const usable = (info: StageInfo | undefined, r: Reading) => !info?.needs || (info.needs === 'dialogue' && r.dialogue);

/** Every structural edit of the pipeline worth trying, weighted by the evidence. */
export function candidates(ctx: OfflineParent, pipeline: Pipeline, r: Reading, random: () => number): Candidate[] {
  const p = pressure(r);
  return [...inserts(ctx, pipeline, r, p), ...removals(ctx, pipeline, p), ...swaps(ctx, pipeline), ...tunes(ctx, pipeline, r, p, random), ...routes(ctx, pipeline, r), ...crossovers(ctx, pipeline, r), ...storeEdits(ctx, pipeline, r, p)];
}

const withStages = (ctx: OfflineParent, next: string[]) => () => writeStages(ctx.files, next);

function insertAt(pipeline: Pipeline, call: StageCall, text: string): string[] {
  const next = pipeline.stages.map((s) => s.text);
  next.splice(insertionIndex(pipeline.stages, phaseOf(call)), 0, text);
  return next;
}

/** Insert a stage the pipeline lacks, where its phase puts it. */
function inserts(ctx: OfflineParent, pipeline: Pipeline, r: Reading, p: Pressure): Candidate[] {
  const has = (name: string) => pipeline.stages.some((s) => s.name === name);
  const weight: Record<string, number> = {
    prfQuery: 0.3 + 1.5 * p.recall,
    bm25Stage: 0.6 + 2 * p.recall,
    denseStage: 0.6 + 2 * p.recall,
    neighbourExpand: 0.3 + 3 * p.neighbour,
    graphExpand: 0.2 + p.recall,
    hopExpand: 0.2 + 0.5 * p.recall + 4 * p.hop,
    mmrStage: 0.3 + p.cut + p.precision,
    capPerSource: 0.2 + p.cut + p.precision,
    dedupe: 0.1 + 6 * r.repeats + (r.repeats >= 0.05 ? p.cut + p.precision : 0),
    timeBoost: askedShare('timeBoost', r) ? 0.3 + 2 * askedShare('timeBoost', r) : 0,
    recencyBoost: askedShare('recencyBoost', r) ? 0.3 + 3 * askedShare('recencyBoost', r) * (0.5 + p.precision) : 0,
    entityQueries: askedShare('entityQueries', r) ? 0.3 + p.recall * (0.5 + askedShare('entityQueries', r)) : 0,
    packWhole: 3,
  };
  const out: Candidate[] = [];
  for (const [name, info] of Object.entries(STAGES)) {
    // A stage whose trigger no validation task has (no task asks about the latest state, say) would change nothing.
    if (has(name) || FUSES.includes(name) || !usable(info, r) || weight[name] === 0) continue;
    const call: StageCall = { name, text: info.call, options: {} };
    out.push({
      weight: weight[name] ?? 0.3,
      why: p.line,
      what: `insert ${info.call}`,
      edits: [{ kind: 'stage-insert', key: name, from: '', to: info.call }],
      make: withStages(ctx, insertAt(pipeline, call, info.call)),
    });
  }
  return out;
}

/** Remove a stage (never the packing stage or the last search). */
function removals(ctx: OfflineParent, pipeline: Pipeline, p: Pressure): Candidate[] {
  const texts = pipeline.stages.map((s) => s.text);
  const searches = pipeline.stages.filter((s) => STAGES[s.name]?.role === 'search').length;
  const out: Candidate[] = [];
  pipeline.stages.forEach((s, i) => {
    const role = STAGES[s.name]?.role;
    if (role === 'pack' || (role === 'search' && searches <= 1)) return;
    // Expansion and diversity stages fill the budget around what was found: less of that is sharper.
    const weight = role === 'search' ? 0.15 : role === 'expand' || role === 'diversity' ? 0.2 + 0.6 * (p.cut + p.precision) : 0.3;
    out.push({
      weight,
      why: p.line,
      what: `remove ${s.text}`,
      edits: [{ kind: 'stage-remove', key: s.name, from: s.text, to: '' }],
      make: withStages(
        ctx,
        texts.filter((_, j) => j !== i),
      ),
    });
  });
  return out;
}

/** Change how the lists are combined: swap the fusion for another kind. */
function swaps(ctx: OfflineParent, pipeline: Pipeline): Candidate[] {
  const texts = pipeline.stages.map((s) => s.text);
  const out: Candidate[] = [];
  pipeline.stages.forEach((s, i) => {
    if (!FUSES.includes(s.name)) return;
    for (const other of FUSES.filter((f) => f !== s.name)) {
      const call = (STAGES[other] as StageInfo).call;
      out.push({
        weight: 0.25,
        why: 'how the ranked lists are combined',
        what: `replace ${s.text} with ${call}`,
        edits: [{ kind: 'stage-swap', key: other, from: s.text, to: call }],
        make: withStages(
          ctx,
          texts.map((t, j) => (j === i ? call : t)),
        ),
      });
    }
  });
  return out;
}

/** Which way the evidence says an option should move, and how much that move is worth trying. */
function tuneDirection(name: string, info: StageInfo, key: string, t: Tunable, r: Reading, p: Pressure, random: () => number): { up: boolean; weight: number } {
  if (info.role === 'pack') {
    if (key === 'maxUnits') return { up: false, weight: 0.3 + 2 * p.precision };
    if (t.kind === 'enum') return { up: true, weight: key === 'render' ? 0.4 + 1.5 * p.precision : 0.3 + p.precision };
  }
  if (info.role === 'search' && key === 'k') return p.precision > p.recall ? { up: false, weight: 0.2 + p.precision } : { up: true, weight: 0.2 + p.recall };
  if (info.role === 'expand') {
    // A hop's units rank below their seed by its decay: raising it (and its reach) is what a split miss asks for.
    if (info.call.startsWith('hopExpand')) return { up: true, weight: 0.15 + 2 * p.hop };
    return { up: p.neighbour > 0.3, weight: 0.15 + p.neighbour };
  }
  if (info.role === 'diversity' && key === 'max') return { up: false, weight: 0.15 + p.precision };
  if (info.role === 'rescore') {
    // A boost the questions ask for (the latest state, a time), where failed payloads held the answer among others:
    // the boost is what puts the right one first, so a stronger one is worth trying.
    return { up: true, weight: 0.2 + (r.weak.length ? 0.2 : 0) + 2 * askedShare(name, r) * p.precision };
  }
  return { up: random() < 0.5, weight: 0.12 };
}

/** Tune one option of a stage, or set one it lacks. */
function tunes(ctx: OfflineParent, pipeline: Pipeline, r: Reading, p: Pressure, random: () => number): Candidate[] {
  const texts = pipeline.stages.map((s) => s.text);
  const out: Candidate[] = [];
  pipeline.stages.forEach((s, i) => {
    const info = STAGES[s.name];
    if (!info) return;
    for (const [key, t] of Object.entries(info.options)) {
      let current = s.options[key];
      if (current === undefined) {
        const start = info.optional?.[key];
        if (start === undefined) continue;
        // An absent option is set: for the units a payload shows, from what the parent shows now.
        current = key === 'maxUnits' && r.shownUnits ? String(Math.max(2, r.shownUnits)) : start;
      }
      const { up, weight } = tuneDirection(s.name, info, key, t, r, p, random);
      const next = movedOption(t, current, up, random);
      if (next === undefined) continue;
      const from = Number(current);
      const to = Number(next);
      out.push({
        weight,
        why: p.line,
        what: `${s.name} ${key} ${s.options[key] ?? '(unset)'} → ${next}`,
        // An option the stage did not set is tuned from '' (unset), whatever value it then starts from.
        edits: [
          {
            kind: 'stage-tune',
            key: `${s.name}.${key}`,
            from: s.options[key] === undefined ? '' : Number.isFinite(from) ? from : current,
            to: Number.isFinite(to) ? to : next,
          },
        ],
        make: withStages(
          ctx,
          texts.map((x, j) => (j === i ? withOption(s, key, next) : x)),
        ),
      });
    }
  });
  return out;
}

/** Route the kind of dialogue question that fails most to a stage of its own. */
function routes(ctx: OfflineParent, pipeline: Pipeline, r: Reading): Candidate[] {
  if (!r.dialogue) return [];
  const kinds = r.misses.kinds;
  const failing = (Object.entries(kinds) as [FailedKind, number][]).filter(([k]) => k !== 'other').sort((a, b) => b[1] - a[1])[0];
  if (!failing || failing[1] === 0) return [];
  const [kind, count] = failing as [Exclude<FailedKind, 'other'>, number];
  const routed = ROUTES[kind];
  const text = `routeByKind({ ${kind}: [${routed}] })`;
  if (pipeline.stages.some((s) => s.text === text)) return [];
  const call: StageCall = { name: 'routeByKind', text, options: {} };
  const asks = kind === 'time' ? 'when' : kind === 'entities' ? 'about several people' : kind === 'count' ? 'how many' : 'why';
  return [
    {
      weight: 0.5 + 2 * (count / Math.max(1, r.misses.failed)),
      why: `${count} of ${r.misses.failed} failed tasks ask ${asks}`,
      what: `route ${kind} tasks to ${routed}`,
      edits: [{ kind: 'route', key: kind, from: '', to: routed }],
      make: withStages(ctx, insertAt(pipeline, call, text)),
    },
  ];
}

/** Crossover: a stage of a better pipeline, or the way a better design of another kind cuts and finds its units. */
function crossovers(ctx: OfflineParent, pipeline: Pipeline, r: Reading): Candidate[] {
  const texts = pipeline.stages.map((s) => s.text);
  const out: Candidate[] = [];
  for (const donor of ctx.donors ?? []) {
    const better = Math.max(0, donor.q - ctx.q);
    const theirs = readPipeline(donor.files);
    if (theirs) {
      const differing = theirs.stages.filter((s) => !texts.includes(s.text) && usable(STAGES[s.name], r));
      for (const s of differing) {
        const same = pipeline.stages.findIndex((x) => x.name === s.name && s.name !== 'routeByKind');
        const next = same >= 0 ? texts.map((t, j) => (j === same ? s.text : t)) : insertAt(pipeline, s, s.text);
        const edit: Edit = {
          kind: 'crossover-stage',
          key: s.name,
          from: same >= 0 ? (texts[same] as string) : '',
          to: s.text,
          donor: donor.node,
        };
        out.push({
          weight: (0.5 + 8 * better) / Math.max(1, differing.length / 2),
          why: `${donor.node} scores ${donor.q.toFixed(3)}`,
          what: `${same >= 0 ? `replace ${texts[same]} with` : 'take'} ${s.text} from ${donor.node}`,
          edits: [edit],
          make: withStages(ctx, next),
        });
      }
      continue;
    }
    // A design of another kind: its way of cutting, indexing and finding units, in this pipeline.
    const form = formOf(donor.design);
    if (!form || better <= 0) continue;
    const changed = Object.entries(form.store).filter(([k, v]) => (pipeline.store[k] ?? STORE_DEFAULTS[k]) !== v);
    if (!changed.length) continue;
    const what = `units as ${donor.design} finds them (${changed.map(([k, v]) => `${k} ${v}`).join(', ')})`;
    // The design crossed in, then each UnitStore option it sets (what the store edits' history learns from too).
    const stores = changed.map(([k, v]): Edit => ({
      kind: 'store',
      key: k,
      from: pipeline.store[k] ?? STORE_DEFAULTS[k] ?? '',
      to: v,
    }));
    out.push({
      weight: 0.5 + 8 * better,
      why: `${donor.node} (${donor.design}: ${form.keeps}) scores ${donor.q.toFixed(3)} against ${ctx.q.toFixed(3)}`,
      what,
      edits: [
        {
          kind: 'crossover-design',
          key: donor.design as string,
          from: '',
          to: donor.design as string,
          donor: donor.node,
        },
        ...stores,
      ],
      make: () => changed.reduce((files, [k, v]) => writeStoreOption(files, k, v), ctx.files),
    });
  }
  return out;
}

/** How much a change of one UnitStore option is worth trying, given what the episodes are and what was missed. */
function storeWeight(key: string, next: string, r: Reading, p: Pressure, units: string): number {
  if (key === 'units') {
    // Agents of task environments replay a past task's steps: a whole procedure is what they use.
    if (next === "'episodes'") return r.tasksWithOutcomes ? 2 + 2 * p.precision : 0.05;
    // Units found by the steps around them rank replies that never repeat the question's words.
    if (next === "'windows'") return r.dialogue ? 0.4 + 3 * (p.cut + p.neighbour) : 0.15;
    // Whole episodes of a history (not procedures) shown where the answer was there among too much: one step each is sharper.
    if (next === "'steps'" && units === "'episodes'" && !r.tasksWithOutcomes) return 0.2 + 2 * p.precision;
    return 0.2;
  }
  if (key === 'window') return units === "'windows'" ? 0.3 : 0;
  // Past tasks found by how alike their instructions are to this one (trajectory retrieval).
  if (key === 'findBy') return r.tasksWithOutcomes && next === "'instruction'" ? 0.8 + 2 * p.recall : 0.05;
  if (key === 'index') return 0.3 + 0.5 * p.recall;
  return 0.03;
}

/** How units are cut, indexed and found: one candidate per other value. */
function storeEdits(ctx: OfflineParent, pipeline: Pipeline, r: Reading, p: Pressure): Candidate[] {
  const out: Candidate[] = [];
  for (const [key, t] of Object.entries(STORE_OPTIONS)) {
    const current = pipeline.store[key] ?? STORE_DEFAULTS[key] ?? '1';
    const values = t.kind === 'enum' ? t.values.filter((v) => v !== current.replace(/"/g, "'")) : [String(Number(current) + 1), String(Number(current) - 1)].filter((v) => Number(v) >= t.min && Number(v) <= t.max);
    for (const next of values) {
      const weight = storeWeight(key, next, r, p, (pipeline.store.units ?? STORE_DEFAULTS.units ?? '').replace(/"/g, "'"));
      if (!weight) continue;
      const why = key === 'units' && next === "'episodes'" && r.tasksWithOutcomes ? 'update episodes are tasks with outcomes: whole episodes are procedures to follow' : p.line;
      out.push({
        weight,
        why,
        what: `units ${key} ${current} → ${next}`,
        edits: [{ kind: 'store', key, from: current, to: next }],
        make: () => writeStoreOption(ctx.files, key, next),
      });
    }
  }
  return out;
}

/**
 * The parent's next structural edit: the weightiest candidate not tried from it yet (ties in a seeded order), scaled
 * by history; undefined when none applies.
 */
export function structuralEdit(ctx: OfflineParent, reading: Reading, random: () => number): StructuralEdit | undefined {
  const pipeline = readPipeline(ctx.files);
  if (!pipeline) return undefined;
  const learned = learnKeys(ctx.history ?? []);
  const tried = (ctx.tried ?? []).map((t) => t.edits);
  const pool = candidates(ctx, pipeline, reading, random)
    .filter((c) => !tried.some((t) => sameEdits(t, c.edits)))
    .map((c) => ({
      c,
      w: c.weight * historyFactor(learned.get(historyKey(c.edits[0] as Edit))) * (0.9 + 0.2 * random()),
    }))
    .sort((a, b) => b.w - a.w);
  for (const { c } of pool) {
    let files: ProgramFiles;
    try {
      files = c.make();
    } catch {
      continue;
    }
    if (Object.keys(files).every((f) => files[f] === ctx.files[f])) continue;
    return { why: c.why, what: c.what, edits: c.edits, files };
  }
  return undefined;
}
