// Structural edits of a pipeline that the failed tasks' evidence points at (reading.ts): failed tasks whose payload
// held the answer call for less and sharper payloads, failed tasks whose payload missed it for more recall, gold units
// ranked but cut for packing, found beside a shown unit for neighbours or windows, one fact of two found for a second
// hop; a kind of dialogue question that fails most is routed to a stage of its own. Edits that assume dialogue turns
// are offered only on dialogue data, whole past episodes only where episodes are tasks with outcomes. Each is weighted
// by the evidence and scaled by what history says of it (inert everywhere → almost never, helped somewhere → more);
// the data's shape beyond the misses (feedback, entities, choices, the latest state) is vocabulary.ts's.
import type { Edit, EditOutcome, OfflineParent } from '../types.ts';
import type { Candidate } from './candidate.ts';
import { movesFrom } from './grid.ts';
import type { FailedKind } from './miss-analysis.ts';
import type { Reading } from './reading.ts';
import { defaultText, literal, type StageInfo, STAGES, STORE_OPTIONS, storeDefault } from './stage-catalogue.ts';
import type { Pipeline } from './stage-edit.ts';

/** Stages a failing kind of dialogue question is routed to. */
const ROUTES: Record<Exclude<FailedKind, 'other'>, string> = {
  time: 'timeBoost({ span: 1.5, when: 1.4 })',
  entities: 'entityQueries({ weight: 0.6 })',
  count: 'neighbourExpand({ before: 1, after: 2, seeds: 15, decay: 0.8 })',
  reason: 'neighbourExpand({ before: 2, after: 1, seeds: 10, decay: 0.8 })',
};

export const FUSES = ['rrfFuse', 'weightedFuse', 'maxFuse'];

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

export function learnKeys(history: EditOutcome[]): Map<string, KeyHistory> {
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
export function historyFactor(h: KeyHistory | undefined): number {
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
  /** Whether failed tasks were traced at all (by gold texts or unit ids): without, the shares are guesses. */
  traced: boolean;
  line: string;
}

export function pressure(r: Reading): Pressure {
  const m = r.misses.misses;
  const units = m.cut + m.neighbour + m.unseen;
  const unitLine = units
    ? ` (gold units: ${m.cut} ranked but cut, ${m.neighbour} next to a shown unit, ${m.unseen} never found)`
    : '';
  const repeats = r.repeats >= 0.05 ? `; ${Math.round(100 * r.repeats)}% of payload lines repeat another` : '';
  // Of the answers missing from payloads, the gold units say why: never found (recall), ranked but cut (packing),
  // beside a shown unit (expansion); without unit ids, missing counts as recall.
  const hop = r.misses.traced ? r.misses.split / r.misses.traced : 0;
  const splitLine = r.misses.split ? `; ${r.misses.split} found one of their facts and missed another` : '';
  const split = units
    ? { recall: m.unseen / units, cut: m.cut / units, neighbour: m.neighbour / units }
    : { recall: 1, cut: 0, neighbour: 0 };
  if (r.traced >= 3) {
    const found = r.found / r.traced;
    const missing = 1 - found;
    return {
      recall: missing * split.recall,
      precision: found,
      cut: missing * split.cut,
      neighbour: missing * split.neighbour,
      hop,
      traced: true,
      line: `of ${r.failed} failed tasks, ${r.found} had the answer in the payload and ${r.missing} did not${unitLine}${splitLine}${repeats}`,
    };
  }
  if (units)
    return {
      ...split,
      precision: 0.2,
      hop,
      traced: true,
      line: `of ${r.failed} failed tasks' gold units: ${m.cut} ranked but cut, ${m.neighbour} next to a shown unit, ${m.unseen} never found${splitLine}${repeats}`,
    };
  return {
    recall: 0.5,
    precision: 0.3,
    cut: 0.2,
    neighbour: 0.1,
    hop: 0,
    traced: false,
    line: `${r.failed} of ${r.scored} tasks failed, with nothing to trace${repeats}`,
  };
}

/** The kind of question a stage acts on (the rest it leaves alone), as the reading counts them. */
const ASKED_BY: Record<string, keyof Reading['asks']> = {
  timeBoost: 'time',
  recencyBoost: 'latest',
  preferLatest: 'latest',
  entityQueries: 'names',
};

/** Share of the validation tasks that ask what a stage acts on; 0 for a stage that acts on every task. */
export const askedShare = (name: string, r: Reading) => (ASKED_BY[name] ? r.asks[ASKED_BY[name]] : 0);

/** What the memory holds for a stage's needs: the data's shape, or the store's options. */
export function usable(info: StageInfo | undefined, r: Reading, pipeline: Pipeline): boolean {
  if (!info?.needs) return true;
  const store = (k: string) => (pipeline.store[k] ?? storeDefault(k) ?? '').replace(/"/g, "'");
  switch (info.needs) {
    case 'dialogue':
      return r.dialogue;
    case 'choices':
      return (r.shape?.choices ?? 0) > 0;
    case 'entities':
      return store('entity') !== "'none'";
    case 'notes':
      return store('notes') === 'true';
    case 'episode-index':
      return store('episodeIndex') === 'true';
    case 'insights':
      return store('insights') === 'true';
  }
}

/** Stages the generic edits leave to the vocabulary (they need what it sets up: entities, choices, an episode index). */
const VOCABULARY_STAGES = new Set([
  'entityFilter',
  'entityBoost',
  'choiceQueries',
  'choiceEvidence',
  'episodeSearch',
  'insightsPreamble',
  'preferLatest',
]);

/** Every structural edit the failed tasks' evidence points at, weighted. */
export function evidenceCandidates(ctx: OfflineParent, pipeline: Pipeline, r: Reading): Candidate[] {
  const p = pressure(r);
  const all = [
    ...inserts(pipeline, r, p),
    ...removals(pipeline, p),
    ...swaps(pipeline),
    ...tunes(pipeline, r, p),
    ...routes(pipeline, r),
    ...storeEdits(pipeline, r, p),
  ];
  const learned = learnKeys(ctx.history ?? []);
  return all.map((c) => ({ ...c, weight: c.weight * historyFactor(learned.get(historyKey(c.edits[0] as Edit))) }));
}

const evidence = (weight: number, why: string, what: string, edits: Edit[]): Candidate => ({
  mode: 'evidence',
  weight,
  why,
  what,
  edits,
});

/** Insert a stage the pipeline lacks, where its role puts it. */
function inserts(pipeline: Pipeline, r: Reading, p: Pressure): Candidate[] {
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
  };
  const out: Candidate[] = [];
  for (const [name, info] of Object.entries(STAGES)) {
    // A stage whose trigger no validation task has (no task asks about the latest state, say) would change nothing.
    if (
      has(name) ||
      FUSES.includes(name) ||
      info.role === 'pack' ||
      VOCABULARY_STAGES.has(name) ||
      !usable(info, r, pipeline) ||
      weight[name] === 0
    )
      continue;
    out.push(
      evidence(weight[name] ?? 0.3, p.line, `insert ${info.call}`, [
        { kind: 'stage-insert', key: name, from: '', to: info.call },
      ]),
    );
  }
  return out;
}

/** Remove a stage (never the packing stage or the last search). */
function removals(pipeline: Pipeline, p: Pressure): Candidate[] {
  const searches = pipeline.stages.filter((s) => STAGES[s.name]?.role === 'search').length;
  const out: Candidate[] = [];
  for (const s of pipeline.stages) {
    const role = STAGES[s.name]?.role;
    if (!role || role === 'pack' || (role === 'search' && searches <= 1)) continue;
    // Expansion and diversity stages fill the budget around what was found: less of that is sharper.
    const weight =
      role === 'search' ? 0.15 : role === 'expand' || role === 'diversity' ? 0.2 + 0.6 * (p.cut + p.precision) : 0.3;
    out.push(
      evidence(weight, p.line, `remove ${s.text}`, [{ kind: 'stage-remove', key: s.name, from: s.text, to: '' }]),
    );
  }
  return out;
}

/** Change how the lists are combined: swap the fusion for another kind. */
function swaps(pipeline: Pipeline): Candidate[] {
  const out: Candidate[] = [];
  for (const s of pipeline.stages) {
    if (!FUSES.includes(s.name)) continue;
    for (const other of FUSES.filter((f) => f !== s.name)) {
      const call = (STAGES[other] as StageInfo).call;
      out.push(
        evidence(0.25, 'how the ranked lists are combined', `replace ${s.text} with ${call}`, [
          { kind: 'stage-swap', key: other, from: s.text, to: call },
        ]),
      );
    }
  }
  return out;
}

/** Which way the evidence says an option should move, and how much that move is worth trying (0: it says nothing). */
function tuneDirection(
  name: string,
  info: StageInfo,
  key: string,
  r: Reading,
  p: Pressure,
): { up: boolean; weight: number } | undefined {
  if (info.role === 'pack') {
    if (key === 'maxUnits') return { up: false, weight: 0.3 + 2 * p.precision };
    if (key === 'render' || key === 'groupBy')
      return { up: true, weight: key === 'render' ? 0.4 + 1.5 * p.precision : 0.3 + p.precision };
    return undefined;
  }
  if (info.role === 'search' && key === 'k')
    return p.precision > p.recall ? { up: false, weight: 0.2 + p.precision } : { up: true, weight: 0.2 + p.recall };
  if (info.role === 'expand') {
    // A hop's units rank below their seed by its decay: raising it (and its reach) is what a split miss asks for.
    if (name === 'hopExpand') return { up: true, weight: 0.15 + 2 * p.hop };
    return { up: p.neighbour > 0.3, weight: 0.15 + p.neighbour };
  }
  if (info.role === 'diversity' && key === 'max') return { up: false, weight: 0.15 + p.precision };
  // A boost the questions ask for (the latest state, a time), where failed payloads held the answer among others:
  // the boost is what puts the right one first, so a stronger one is worth trying.
  if (info.role === 'rescore')
    return { up: true, weight: 0.2 + (r.weak.length ? 0.2 : 0) + 2 * askedShare(name, r) * p.precision };
  return undefined;
}

/** Tune one option of a stage one grid step the way the evidence points (the sweep covers the rest). */
function tunes(pipeline: Pipeline, r: Reading, p: Pressure): Candidate[] {
  const out: Candidate[] = [];
  for (const s of pipeline.stages) {
    const info = STAGES[s.name];
    if (!info) continue;
    for (const [key, t] of Object.entries(info.options)) {
      const dir = tuneDirection(s.name, info, key, r, p);
      if (!dir) continue;
      // An option the call does not set runs with its declared default (a payload cap: what the parent shows now).
      const unset = s.options[key] === undefined;
      const current = unset
        ? key === 'maxUnits' && r.shownUnits
          ? String(Math.max(2, r.shownUnits))
          : defaultText(t)
        : s.options[key];
      if (current === undefined) continue;
      const typed =
        t.kind === 'int' || t.kind === 'float'
          ? Number(current)
          : t.kind === 'bool'
            ? current === 'true'
            : current.replace(/^['"]|['"]$/g, '');
      const move = movesFrom(t, typed).find((m) => m.side === 'other' || m.side === (dir.up ? 'up' : 'down'));
      if (!move) continue;
      const to = typeof move.value === 'string' ? literal(move.value) : move.value;
      const from = unset
        ? t.kind === 'int' || t.kind === 'float'
          ? Number(current)
          : current
        : typeof typed === 'string'
          ? current
          : typed;
      out.push(
        evidence(dir.weight, p.line, `${s.name} ${key} ${s.options[key] ?? `(default ${current})`} → ${String(to)}`, [
          { kind: 'stage-tune', key: `${s.name}.${key}`, from, to },
        ]),
      );
    }
  }
  return out;
}

/** Route the kind of dialogue question that fails most to a stage of its own. */
function routes(pipeline: Pipeline, r: Reading): Candidate[] {
  if (!r.dialogue) return [];
  const kinds = r.misses.kinds;
  const failing = (Object.entries(kinds) as [FailedKind, number][])
    .filter(([k]) => k !== 'other')
    .sort((a, b) => b[1] - a[1])[0];
  if (!failing || failing[1] === 0) return [];
  const [kind, count] = failing as [Exclude<FailedKind, 'other'>, number];
  const routed = ROUTES[kind];
  if (pipeline.stages.some((s) => s.text === `routeByKind({ ${kind}: [${routed}] })`)) return [];
  const asks =
    kind === 'time' ? 'when' : kind === 'entities' ? 'about several people' : kind === 'count' ? 'how many' : 'why';
  return [
    evidence(
      0.5 + 2 * (count / Math.max(1, r.misses.failed)),
      `${count} of ${r.misses.failed} failed tasks ask ${asks}`,
      `route ${kind} tasks to ${routed}`,
      [{ kind: 'route', key: kind, from: '', to: routed }],
    ),
  ];
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
  return 0;
}

/** How units are cut, indexed and found: one candidate per other value of those options. */
function storeEdits(pipeline: Pipeline, r: Reading, p: Pressure): Candidate[] {
  const out: Candidate[] = [];
  const units = (pipeline.store.units ?? storeDefault('units') ?? '').replace(/"/g, "'");
  for (const key of ['units', 'window', 'index', 'findBy']) {
    const t = STORE_OPTIONS[key];
    if (!t) continue;
    const current = (pipeline.store[key] ?? storeDefault(key) ?? '').replace(/"/g, "'");
    const values =
      t.kind === 'enum'
        ? t.values.map(literal).filter((v) => v !== current)
        : t.kind === 'int'
          ? [String(Number(current) + 1), String(Number(current) - 1)].filter(
              (v) => Number(v) >= t.search[0] && Number(v) <= t.search[1],
            )
          : [];
    for (const next of values) {
      const weight = storeWeight(key, next, r, p, units);
      if (!weight) continue;
      const why =
        key === 'units' && next === "'episodes'" && r.tasksWithOutcomes
          ? 'update episodes are tasks with outcomes: whole episodes are procedures to follow'
          : p.line;
      out.push(
        evidence(weight, why, `units ${key} ${current} → ${next}`, [{ kind: 'store', key, from: current, to: next }]),
      );
    }
  }
  return out;
}
