// What a quick examination of a history benchmark (worlds of sessions, questions about them: LoCoMo, data files) runs
// on, chosen so that a change in how a program ranks shows in its payloads: questions from several worlds, from every
// scenario, the ones about late sessions first (the first sessions and their questions are where every program does
// alike), and the sessions of their worlds in order, as many as fit a bound on turns — always those the chosen
// questions' evidence is in. Only questions the search asks about (the validation split) are chosen.

export interface SampleWorld {
  id: string;
  /** Turns per session, in order. */
  sessionTurns: readonly number[];
  questions: readonly SampleQuestion[];
}

export interface SampleQuestion {
  id: string;
  scenario: string;
  /** Sessions (indices into the world's) the question's evidence is in; empty when it names none. */
  evidenceSessions: readonly number[];
}

export interface HistorySample {
  /** Per chosen world, in order: the sessions to learn from (indices, in time order) and the questions to ask. */
  worlds: { id: string; sessions: number[]; questions: string[] }[];
}

/** Worlds a sample takes questions from, at most. */
export const SAMPLE_WORLDS = 3;
/** Questions a sample asks at most, whatever the number of scenarios. */
export const SAMPLE_MAX_QUESTIONS = 16;
/** Turns the sample's sessions hold at most, in all (a quick examination embeds and indexes them). */
export const SAMPLE_MAX_TURNS = 2_000;

const lastSession = (q: SampleQuestion) => (q.evidenceSessions.length ? Math.max(...q.evidenceSessions) : -1);

export function historySample(worlds: readonly SampleWorld[], count: number): HistorySample {
  // The worlds with the most questions to ask, up to SAMPLE_WORLDS (ties: the earlier world).
  const chosen = worlds
    .map((w, i) => ({ w, i }))
    .filter(({ w }) => w.questions.length > 0)
    .sort((a, b) => b.w.questions.length - a.w.questions.length || a.i - b.i)
    .slice(0, SAMPLE_WORLDS)
    .sort((a, b) => a.i - b.i)
    .map(({ w }) => w);
  const scenarios = new Set(chosen.flatMap((w) => w.questions.map((q) => q.scenario))).size;
  const want = Math.min(SAMPLE_MAX_QUESTIONS, Math.max(count, scenarios));
  // Groups of (world, scenario), each ordered late-evidence first; one question from each group in turn.
  const groups: { world: SampleWorld; qs: SampleQuestion[] }[] = [];
  for (const world of chosen) {
    const byScenario = new Map<string, SampleQuestion[]>();
    for (const q of world.questions) {
      const g = byScenario.get(q.scenario);
      if (g) g.push(q);
      else byScenario.set(q.scenario, [q]);
    }
    for (const qs of byScenario.values()) groups.push({ world, qs: [...qs].sort((a, b) => lastSession(b) - lastSession(a)) });
  }
  const picked = new Map<string, SampleQuestion[]>();
  let taken = 0;
  for (let round = 0; taken < want; round++) {
    const before = taken;
    for (const g of groups) {
      const q = g.qs[round];
      if (!q || taken >= want) continue;
      picked.set(g.world.id, [...(picked.get(g.world.id) ?? []), q]);
      taken++;
    }
    if (taken === before) break;
  }
  const used = chosen.filter((w) => picked.has(w.id));
  const turnsEach = Math.floor(SAMPLE_MAX_TURNS / Math.max(1, used.length));
  return { worlds: used.map((w) => ({ id: w.id, sessions: sessionsWithin(w, picked.get(w.id) ?? [], turnsEach), questions: (picked.get(w.id) ?? []).map((q) => q.id) })) };
}

/** The world's sessions within `maxTurns`: every one when they fit; else the evidence sessions, then the latest others. */
function sessionsWithin(world: SampleWorld, questions: readonly SampleQuestion[], maxTurns: number): number[] {
  const all = world.sessionTurns.map((_, i) => i);
  const total = world.sessionTurns.reduce((a, b) => a + b, 0);
  if (total <= maxTurns) return all;
  const keep = new Set<number>();
  let turns = 0;
  const take = (i: number) => {
    if (keep.has(i) || i < 0 || i >= world.sessionTurns.length) return;
    const n = world.sessionTurns[i] as number;
    if (turns + n > maxTurns && keep.size > 0) return;
    keep.add(i);
    turns += n;
  };
  for (const q of questions) for (const s of q.evidenceSessions) take(s);
  for (let i = all.length - 1; i >= 0; i--) take(i);
  return [...keep].sort((a, b) => a - b);
}
