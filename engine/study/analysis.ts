// The numbers a study reports, computed from study.json alone (study-file.ts) with statistics.ts: per environment the
// best standard design on test, each search's pick, the picks' mean ± 95% interval across search seeds, each pick's
// paired difference against the best design on test and on validation (so overfitting to validation shows), the
// gap between search validation, selection and test, and the transfer matrix. Every renderer (viewer/study/) reads
// this, never study.json directly, so a table and a figure cannot disagree.
import {
  comparePaired,
  comparisonSentence,
  type MeanInterval,
  meanInterval,
  type PairedComparison,
} from './statistics.ts';
import { rewardMap, type StudyEnv, type StudyEvaluation, type StudyFile, type StudySearch } from './study-file.ts';

export interface DesignRow {
  program: string;
  test: number | null;
  validation: number | null;
  tasks: number;
  bySource?: StudyEvaluation['bySource'];
}

export interface PickRow {
  seed: number;
  node?: string;
  /** Search validation: the mean on the validation tasks the meta agent was shown. */
  validation: number | null;
  /** Selection: the validation kept from the meta agent, where the pick was chosen (absent: the search kept none). */
  selection: number | null;
  test: number | null;
  /** Test minus search validation: how much of the validation score did not carry over. */
  gap: number | null;
  bySource?: StudyEvaluation['bySource'];
  /** Against the best design, task by task on test, and on validation. */
  vsBestTest?: PairedComparison;
  vsBestValidation?: PairedComparison;
  sentence?: string;
  /** Under each other reader: the pick against the best design, and whether the gain under the search's reader holds. */
  readers: ReaderCheck[];
  error?: string;
  run: string;
}

export interface ReaderCheck {
  reader: string;
  pick: number | null;
  best: number | null;
  vsBest?: PairedComparison;
  /** Set when the pick beat the best design under the search's reader and does not under this one: why. */
  flag?: string;
}

export interface EnvAnalysis {
  index: number;
  spec: string;
  name: string;
  reward?: string;
  error?: string;
  designs: DesignRow[];
  /** The standard design with the best test score (chosen on test: the most favourable floor to beat). */
  best?: DesignRow;
  picks: PickRow[];
  /** The picks' scores across search seeds, each with its 95% interval. */
  picksTest: MeanInterval;
  picksValidation: MeanInterval;
  picksSelection: MeanInterval;
  /** Best validation score over steps per search, with its test score at the end. */
  curves: { seed: number; points: { step: number; best: number }[]; test: number | null }[];
}

export interface TransferCell {
  /** The picks' mean test score on the target, with its interval across seeds. */
  score: MeanInterval;
  /** On the diagonal: the searches' own test scores, which the cell must equal. */
  own?: number;
}

export interface StudyAnalysis {
  envs: EnvAnalysis[];
  joint?: EnvAnalysis;
  /** rows: the environment a pick was searched on; columns: the environment it was tested on. */
  transfer: { names: string[]; cells: (TransferCell | null)[][] };
  protocol: string;
  status: StudyFile['status'];
}

const scoreOf = (evaluations: StudyEvaluation[], program: string) => evaluations.find((e) => e.program === program);
const defined = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number');

function designRows(env: StudyEnv): DesignRow[] {
  return env.floor.test.map((t) => {
    const v = scoreOf(env.floor.validation, t.program);
    return {
      program: t.program,
      test: t.score,
      validation: v?.score ?? null,
      tasks: t.tasks,
      ...(t.bySource ? { bySource: t.bySource } : {}),
    };
  });
}

function bestDesign(rows: DesignRow[]): DesignRow | undefined {
  return rows
    .filter((r) => r.test !== null)
    .sort((a, b) => (b.test as number) - (a.test as number) || a.program.localeCompare(b.program))[0];
}

function pickRow(env: StudyEnv, s: StudySearch, best: DesignRow | undefined): PickRow {
  const test = s.test?.score ?? null;
  const validation = s.validation ?? null;
  const row: PickRow = {
    readers: [],
    seed: s.seed,
    ...(s.pick ? { node: s.pick.node } : {}),
    validation,
    selection: s.selection ?? null,
    test,
    gap: test !== null && validation !== null ? test - validation : null,
    ...(s.test?.bySource ? { bySource: s.test.bySource } : {}),
    ...(s.error ? { error: s.error } : {}),
    run: s.run,
  };
  if (!best || !s.test) return row;
  const bestTest = scoreOf(env.floor.test, best.program);
  const bestValidation = scoreOf(env.floor.validation, best.program);
  // The resampler's seed names the comparison, so each is reproducible on its own.
  const key = `${env.spec}/${s.seed}`;
  if (bestTest) row.vsBestTest = comparePaired(rewardMap(s.test.rewards), rewardMap(bestTest.rewards), `${key}/test`);
  if (bestValidation && s.validationRewards)
    row.vsBestValidation = comparePaired(
      rewardMap(s.validationRewards),
      rewardMap(bestValidation.rewards),
      `${key}/validation`,
    );
  if (row.vsBestTest)
    row.sentence = comparisonSentence(`the pick of seed ${s.seed}`, best.program, row.vsBestTest, 'test');
  row.readers = readerChecks(env, s.seed, best.program, row.vsBestTest);
  return row;
}

/**
 * The pick against the best design under each other reader. A gain holds under a reader when the pick is ahead there
 * too, and significantly so where it was significantly ahead under the search's reader; one that does not is flagged.
 */
function readerChecks(env: StudyEnv, seed: number, best: string, primary: PairedComparison | undefined): ReaderCheck[] {
  const rereads = env.readers ?? [];
  const names = [...new Set(rereads.map((r) => r.reader))];
  return names.flatMap((reader) => {
    const pick = rereads.find((r) => r.reader === reader && r.seed === seed);
    const floor = rereads.find((r) => r.reader === reader && r.seed === undefined && r.program === best);
    if (!pick || !floor) return [];
    const vsBest = comparePaired(rewardMap(pick.rewards), rewardMap(floor.rewards), `${env.spec}/${seed}/${reader}`);
    const check: ReaderCheck = { reader, pick: pick.score, best: floor.score, vsBest };
    const gained = primary !== undefined && primary.tasks > 0 && primary.mean > 0;
    const holds = vsBest.mean > 0 && (vsBest.significant || !primary?.significant);
    if (gained && !holds)
      check.flag = `the pick of seed ${seed} beats ${best} under the search's reader (${signedText(primary.mean)}${primary.significant ? ', significant' : ''}) but not under ${reader} (${signedText(vsBest.mean)}, permutation p = ${vsBest.permutationP.toFixed(3)}): a gain that does not survive another reader`;
    return [check];
  });
}

const signedText = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

export function analyzeEnv(env: StudyEnv): EnvAnalysis {
  const designs = designRows(env);
  const best = bestDesign(designs);
  const picks = env.searches.map((s) => pickRow(env, s, best));
  return {
    index: env.index,
    spec: env.spec,
    name: env.name ?? env.spec,
    ...(env.reward ? { reward: env.reward } : {}),
    ...(env.error ? { error: env.error } : {}),
    designs,
    ...(best ? { best } : {}),
    picks,
    picksTest: meanInterval(defined(picks.map((p) => p.test))),
    picksValidation: meanInterval(defined(picks.map((p) => p.validation))),
    picksSelection: meanInterval(defined(picks.map((p) => p.selection))),
    curves: env.searches.map((s) => ({ seed: s.seed, points: s.curve ?? [], test: s.test?.score ?? null })),
  };
}

function transferMatrix(study: StudyFile): StudyAnalysis['transfer'] {
  const envs = study.environments;
  const cells = envs.map((from) =>
    envs.map((to) => {
      const scores = defined(from.transfer.filter((t) => t.target === to.index).map((t) => t.evaluation?.score));
      if (!scores.length) return null;
      const cell: TransferCell = { score: meanInterval(scores) };
      if (from.index === to.index) {
        const own = defined(from.searches.map((s) => s.test?.score));
        if (own.length) cell.own = own.reduce((a, b) => a + b, 0) / own.length;
      }
      return cell;
    }),
  );
  return { names: envs.map((e) => e.name ?? e.spec), cells };
}

export function analyzeStudy(study: StudyFile): StudyAnalysis {
  return {
    envs: study.environments.map(analyzeEnv),
    ...(study.joint ? { joint: analyzeEnv(study.joint) } : {}),
    transfer: transferMatrix(study),
    protocol: study.protocol,
    status: study.status,
  };
}
