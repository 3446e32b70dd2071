// Structural edits of a pipeline program: the offline agent adds, removes, swaps and tunes stages, routes a kind of
// task that keeps failing to a stage of its own, changes how units are cut, or takes a stage from another good
// program of the tree (crossover). Each candidate edit is weighted by what the parent's failed tasks missed (gold
// units ranked but cut, found only next to shown units, or never found), by the kinds of tasks that failed, and by
// what the same edit did before anywhere in the tree (inert edits are left alone, helpful ones tried again).
import type { Edit, EditOutcome, ParentContext } from '../types.ts';
import { analyseMisses, type FailedKind, type MissReport } from './miss-analysis.ts';
import { insertionIndex, phaseOf, STAGES, STORE_OPTIONS, type Tunable } from './stage-catalogue.ts';
import { type Pipeline, readPipeline, type StageCall, withOption, writeStages, writeStoreOption } from './stage-edit.ts';
import type { ProgramFiles } from '../../../memo-programs/files.ts';

export interface StructuralEdit {
  /** What kind of edit, e.g. "insert", "crossover". */
  kind: string;
  /** The evidence that led to it, in a clause. */
  why: string;
  /** What changed, in a clause. */
  what: string;
  edits: Edit[];
  files: ProgramFiles;
}

interface Candidate {
  kind: string;
  key: string;
  weight: number;
  why: string;
  what: string;
  edits: Edit[];
  make: () => ProgramFiles;
}

/** What `new UnitStore({ … })` uses for an option the program does not set. */
const STORE_DEFAULTS: Record<string, string> = { units: "'steps'", index: "'both'", findBy: "'content'" };

/** Stages a failing kind of task is routed to. */
const ROUTES: Record<Exclude<FailedKind, 'other'>, string> = {
  time: 'timeBoost({ span: 1.5, when: 1.4 })',
  entities: 'entityQueries({ weight: 0.6 })',
  count: 'neighbourExpand({ before: 1, after: 2, seeds: 15, decay: 0.8 })',
  reason: 'neighbourExpand({ before: 2, after: 1, seeds: 10, decay: 0.8 })',
};

const round2 = (x: number) => Math.round(x * 100) / 100;

/** A new value of an option, moved `up` or down within its range; undefined when it cannot move. */
export function movedOption(t: Tunable, current: string, up: boolean, random: () => number): string | undefined {
  if (t.kind === 'enum') {
    const others = t.values.filter((v) => v.replace(/"/g, "'") !== current.replace(/"/g, "'"));
    return others.length ? others[Math.floor(random() * others.length)] : undefined;
  }
  const v = Number(current);
  if (!Number.isFinite(v)) return undefined;
  let next: number;
  if (t.kind === 'int') next = Math.min(t.max, Math.max(t.min, up ? v + Math.max(1, Math.round(v * (0.25 + 0.5 * random()))) : v - Math.max(1, Math.round(v * (0.2 + 0.3 * random())))));
  else next = round2(Math.min(t.max, Math.max(t.min, v * (up ? 1 + 0.15 + 0.3 * random() : 1 - 0.15 - 0.25 * random()))));
  return next === v ? undefined : String(next);
}

interface KeyHistory {
  tries: number;
  inert: number;
  best: number;
}

function learnKeys(history: EditOutcome[]): Map<string, KeyHistory> {
  const out = new Map<string, KeyHistory>();
  for (const h of history) {
    for (const e of h.edits) {
      const s = out.get(e.path) ?? { tries: 0, inert: 0, best: -Infinity };
      s.tries++;
      if (Math.abs(h.delta) < 1e-9) s.inert++;
      s.best = Math.max(s.best, h.delta);
      out.set(e.path, s);
    }
  }
  return out;
}

/** How history scales an edit's weight: inert everywhere → almost never; helped somewhere → more; hurt → less. */
function historyFactor(h: KeyHistory | undefined): number {
  if (!h) return 1;
  if (h.inert === h.tries) return 0.05;
  if (h.best > 1e-9) return 2 + 20 * h.best;
  return 0.3;
}

function pickWeighted<T extends { weight: number }>(items: T[], random: () => number): T | undefined {
  const total = items.reduce((a, b) => a + b.weight, 0);
  if (!(total > 0)) return undefined;
  let r = random() * total;
  for (const it of items) {
    r -= it.weight;
    if (r <= 0) return it;
  }
  return items[items.length - 1];
}

function shares(report: MissReport): { cut: number; neighbour: number; unseen: number } {
  const total = report.misses.cut + report.misses.neighbour + report.misses.unseen;
  if (!total) return { cut: 1 / 3, neighbour: 1 / 3, unseen: 1 / 3 };
  return { cut: report.misses.cut / total, neighbour: report.misses.neighbour / total, unseen: report.misses.unseen / total };
}

function missLine(report: MissReport): string {
  const m = report.misses;
  return report.traced ? `of ${report.failed} failed tasks' gold units: ${m.cut} ranked but cut, ${m.neighbour} next to a shown unit, ${m.unseen} never found` : `${report.failed} failed tasks, no unit ids to trace`;
}

/** How much a change of one UnitStore option is worth trying, given what the episodes are and what the misses were. */
function storeWeight(key: string, next: string, o: { tasksWithOutcomes: boolean; windows: boolean; share: ReturnType<typeof shares> }): number {
  if (key === 'units') {
    // The agents of task environments replay a past success's steps: a whole procedure is what they use.
    if (next === "'episodes'") return o.tasksWithOutcomes ? 8 : 0.1;
    // Units found by the steps around them rank replies that never repeat the task's words, which is what a gold
    // unit ranked below the cut or found only beside a shown one lacked.
    if (next === "'windows'") return o.tasksWithOutcomes ? 0.2 : 0.5 + 3 * (o.share.cut + o.share.neighbour);
    return 0.2;
  }
  if (key === 'window') return o.windows ? 0.3 : 0;
  // Past tasks found by how alike their instructions are to this one (trajectory retrieval).
  if (key === 'findBy') return o.tasksWithOutcomes && next === "'instruction'" ? 0.8 + 2 * o.share.unseen : 0.05;
  return 0.03;
}

/** Every structural edit of the pipeline worth trying, weighted. */
export function candidates(ctx: ParentContext, pipeline: Pipeline, report: MissReport, random: () => number): Candidate[] {
  const stages = pipeline.stages;
  const texts = stages.map((s) => s.text);
  const has = (name: string) => stages.some((s) => s.name === name);
  const share = shares(report);
  const evidence = missLine(report);
  const out: Candidate[] = [];
  const withStages = (next: string[]) => () => writeStages(ctx.files, next);
  const insertAt = (call: StageCall, text: string) => {
    const next = texts.slice();
    next.splice(insertionIndex(stages, phaseOf(call)), 0, text);
    return next;
  };

  // Insert a stage the pipeline lacks, where its phase puts it.
  const insertWeight: Record<string, number> = {
    prfQuery: 0.3 + 1.5 * share.unseen,
    entityQueries: 0.3 + 1.5 * share.unseen * (report.kinds.entities / Math.max(1, report.failed) + 0.3),
    bm25Stage: 1 + 2 * share.unseen,
    denseStage: 1 + 2 * share.unseen,
    neighbourExpand: 0.4 + 3 * share.neighbour,
    graphExpand: 0.2 + share.unseen,
    mmrStage: 0.3 + share.cut,
    capPerSource: 0.2 + share.cut,
    timeBoost: 0.3 + 2 * (report.kinds.time / Math.max(1, report.failed)),
    packWhole: 3,
  };
  const fuses = ['rrfFuse', 'weightedFuse', 'maxFuse'];
  for (const [name, info] of Object.entries(STAGES)) {
    if (has(name) || fuses.includes(name)) continue;
    const call: StageCall = { name, text: info.call, options: {} };
    out.push({ kind: 'insert', key: `stages+${name}`, weight: insertWeight[name] ?? 0.3, why: evidence, what: `insert ${info.call}`, edits: [{ path: `stages+${name}`, from: '', to: info.call }], make: withStages(insertAt(call, info.call)) });
  }

  // Remove a stage (never the packing stage or the last search).
  const searches = stages.filter((s) => STAGES[s.name]?.role === 'search').length;
  stages.forEach((s, i) => {
    const role = STAGES[s.name]?.role;
    if (role === 'pack' || (role === 'search' && searches <= 1)) return;
    // Expansion and diversity stages fill the budget with units ranked below the gold ones that were cut.
    const weight = role === 'search' ? 0.1 : role === 'expand' ? 0.2 + 0.6 * share.cut : role === 'diversity' ? 0.2 + 0.6 * share.cut : 0.3;
    out.push({ kind: 'remove', key: `stages-${s.name}`, weight, why: evidence, what: `remove ${s.text}`, edits: [{ path: `stages-${s.name}`, from: s.text, to: '' }], make: withStages(texts.filter((_, j) => j !== i)) });
  });

  // Change how the lists are combined: swap the fusion for another kind.
  stages.forEach((s, i) => {
    if (!fuses.includes(s.name)) return;
    for (const other of fuses.filter((f) => f !== s.name)) {
      const call = (STAGES[other] as (typeof STAGES)[string]).call;
      out.push({ kind: 'swap', key: `fuse:${other}`, weight: 0.25, why: 'how the ranked lists are combined', what: `replace ${s.text} with ${call}`, edits: [{ path: `fuse:${other}`, from: s.name, to: other }], make: withStages(texts.map((t, j) => (j === i ? call : t))) });
    }
  });

  // Tune one option of a stage (config edits of the pipeline).
  stages.forEach((s, i) => {
    const info = STAGES[s.name];
    if (!info) return;
    for (const [key, t] of Object.entries(info.options)) {
      const current = s.options[key];
      if (current === undefined) continue;
      let up = random() < 0.5;
      if (info.role === 'expand' && share.neighbour > 0.3) up = true;
      if (info.role === 'search' && share.unseen > 0.5) up = true;
      if ((info.role === 'diversity' && key === 'max') || (info.role === 'expand' && share.cut > 0.5)) up = false;
      const next = movedOption(t, current, up, random);
      if (next === undefined) continue;
      const from = Number(current);
      const to = Number(next);
      out.push({
        kind: 'tune',
        key: `${s.name}.${key}`,
        weight: 0.15,
        why: evidence,
        what: `${s.name} ${key} ${current} → ${next}`,
        edits: [{ path: `${s.name}.${key}`, from: Number.isFinite(from) ? from : current, to: Number.isFinite(to) ? to : next }],
        make: withStages(texts.map((x, j) => (j === i ? withOption(s, key, next) : x))),
      });
    }
  });

  // Route the kind of task that fails most to a stage of its own.
  const failing = (Object.entries(report.kinds) as [FailedKind, number][]).filter(([k]) => k !== 'other').sort((a, b) => b[1] - a[1])[0];
  if (failing && failing[1] > 0) {
    const [kind, count] = failing as [Exclude<FailedKind, 'other'>, number];
    const routed = ROUTES[kind];
    const text = `routeByKind({ ${kind}: [${routed}] })`;
    if (!texts.includes(text)) {
      const call: StageCall = { name: 'routeByKind', text, options: {} };
      out.push({ kind: 'route', key: `route.${kind}`, weight: 0.5 + 2 * (count / Math.max(1, report.failed)), why: `${count} of ${report.failed} failed tasks ask ${kind === 'time' ? 'when' : kind === 'entities' ? 'about several people' : kind === 'count' ? 'how many' : 'why'}`, what: `route ${kind} tasks to ${routed}`, edits: [{ path: `route.${kind}`, from: '', to: routed }], make: withStages(insertAt(call, text)) });
    }
  }

  // Crossover: a stage of another good program that this one lacks or configures differently.
  for (const donor of ctx.donors ?? []) {
    const theirs = readPipeline(donor.files);
    if (!theirs) continue;
    const differing = theirs.stages.filter((s) => !texts.includes(s.text));
    for (const s of differing) {
      const same = stages.findIndex((x) => x.name === s.name && s.name !== 'routeByKind');
      const next = same >= 0 ? texts.map((t, j) => (j === same ? s.text : t)) : insertAt(s, s.text);
      const better = Math.max(0, donor.q - ctx.q);
      out.push({ kind: 'crossover', key: `crossover:${s.name}`, weight: (0.3 + 5 * better) / Math.max(1, differing.length / 2), why: `${donor.node} scores ${donor.q.toFixed(3)}`, what: `${same >= 0 ? `replace ${texts[same]} with` : 'take'} ${s.text} from ${donor.node}`, edits: [{ path: `crossover:${s.name}`, from: same >= 0 ? (texts[same] as string) : '', to: s.text }], make: withStages(next) });
    }
  }

  // How units are cut and indexed: one candidate per other value. Update episodes that are tasks with outcomes
  // (not dialogues) are procedures: a whole past episode is what an agent can follow again.
  const tasksWithOutcomes = ctx.exampleEpisode !== undefined && ctx.exampleEpisode.meta?.kind !== 'dialogue';
  for (const [key, t] of Object.entries(STORE_OPTIONS)) {
    const current = pipeline.store[key] ?? STORE_DEFAULTS[key] ?? '1';
    const values = t.kind === 'enum' ? t.values.filter((v) => v !== current.replace(/"/g, "'")) : [movedOption(t, current, random() < 0.6, random)].filter((v): v is string => v !== undefined);
    for (const next of values) {
      const weight = storeWeight(key, next, { tasksWithOutcomes, windows: pipeline.store.units === "'windows'", share });
      if (!weight) continue;
      const why = key === 'units' && next === "'episodes'" && tasksWithOutcomes ? 'update episodes are tasks with outcomes: whole episodes are procedures to follow' : evidence;
      out.push({ kind: 'store', key: `store.${key}=${next}`, weight, why, what: `units ${key} ${current} → ${next}`, edits: [{ path: `store.${key}=${next}`, from: current, to: next }], make: () => writeStoreOption(ctx.files, key, next) });
    }
  }
  return out;
}

/** One structural edit of the parent, chosen by the evidence and the tree's history; undefined when none applies. */
export function structuralEdit(ctx: ParentContext, random: () => number, scenario?: string): StructuralEdit | undefined {
  const pipeline = readPipeline(ctx.files);
  if (!pipeline) return undefined;
  const overall = analyseMisses(ctx);
  const report = scenario ? analyseMisses(ctx, scenario) : overall;
  const learned = learnKeys(ctx.history ?? []);
  const tried = new Set((ctx.tried ?? []).map((t) => t.change));
  let pool = candidates(ctx, pipeline, report.failed ? report : overall, random).map((c) => ({ ...c, weight: c.weight * historyFactor(learned.get(c.key)) }));
  pool = pool.filter((c) => ![...tried].some((t) => t.includes(c.what)));
  // A program's first structural child takes the edit the evidence weighs most; later ones sample by weight.
  const first = tried.size === 0;
  while (pool.length) {
    const c = first ? pool.reduce((best, x) => (x.weight > best.weight ? x : best)) : pickWeighted(pool, random);
    if (!c) return undefined;
    pool = pool.filter((x) => x !== c);
    let files: ProgramFiles;
    try {
      files = c.make();
    } catch {
      continue;
    }
    if (Object.keys(files).every((f) => files[f] === ctx.files[f])) continue;
    return { kind: c.kind, why: scenario ? `cluster "${scenario}": ${c.why}` : c.why, what: c.what, edits: c.edits, files };
  }
  return undefined;
}
