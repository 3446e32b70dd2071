// A procedural benchmark with several worlds (eight workshops), written against automemo's public API only (as a researcher writes
// theirs): workshops whose machines are fixed by secret procedures. In each workshop (a world), how a job type
// (repair, calibrate, restart) is done depends on the machine's generation (mk1 or mk2) — never on the machine class
// or its model number, which only add words. Without memory the agent tries the four procedures of the job in a fixed
// order (reward 1 / attempts); with memory it follows a procedure that got a machine running, when the nearest heading
// above it names the same job and the same generation. Payloads are small (800 characters): a memory has to bring the
// right past job, with the line that names it, into few characters.
import { type AgentRun, defineEnvironment, type EnvTask, type MemoryPayload } from 'automemo';
import { rng } from './random.ts';

const JOBS = {
  repair: ['cut power, swap fuse', 'cut power, reseat belt', 'bleed valve, swap fuse', 'reset breaker, reseat belt'],
  calibrate: ['zero gauge, tighten clamp', 'warm up, zero gauge', 'tighten clamp, level bed', 'level bed, warm up'],
  restart: ['hold stop, press start', 'clear jam, press start', 'toggle mains, clear jam', 'hold stop, toggle mains'],
} as const;
type Job = keyof typeof JOBS;
const JOB_NAMES = Object.keys(JOBS) as Job[];
const GENERATIONS = ['mk1', 'mk2'] as const;
const CLASSES = ['press', 'lathe', 'kiln', 'loom'];
const WORKSHOPS = ['ashford', 'brindle', 'corrie', 'dunmore', 'elster', 'fenwick', 'garth', 'holloway'];

interface Truth {
  procedure: string;
  job: Job;
  generation: string;
}

function tasks(seed: number, worlds: number, perWorld: number): EnvTask<Truth>[] {
  const r = rng(seed);
  const out: EnvTask<Truth>[] = [];
  for (const workshop of WORKSHOPS.slice(0, worlds)) {
    // The workshop's secret: one procedure per job and generation.
    const secret = new Map(JOB_NAMES.flatMap((job) => GENERATIONS.map((g) => [`${job}/${g}`, JOBS[job][r.int(4)] as string] as const)));
    for (let i = 0; i < perWorld; i++) {
      const job = JOB_NAMES[i % JOB_NAMES.length] as Job;
      const generation = r.pick(GENERATIONS);
      const machine = `${r.pick(CLASSES)} ${String.fromCharCode(65 + r.int(26))}-${100 + r.int(900)}`;
      out.push({
        id: `${workshop}-${i}`,
        world: workshop,
        scenario: job,
        instruction: `${job[0]?.toUpperCase()}${job.slice(1)} the ${generation} ${machine} in the ${workshop} workshop.`,
        meta: { workshop, job },
        truth: { procedure: secret.get(`${job}/${generation}`) as string, job, generation },
      });
    }
  }
  return out;
}

/**
 * The procedure a payload points to: a line "try: <procedure> -> running" whose nearest heading at or above it (a line
 * naming a job) names this task's job and generation.
 */
function remembered(memory: MemoryPayload, job: Job, generation: string): string | undefined {
  let heading = '';
  for (const line of memory.text.split('\n')) {
    const lower = line.toLowerCase();
    if (JOB_NAMES.some((j) => lower.includes(j))) heading = lower;
    const m = /try: ([a-z ,]+?)\s*->\s*running/.exec(lower);
    if (m && heading.includes(job) && heading.includes(generation)) return m[1];
  }
  return undefined;
}

export default defineEnvironment({
  name: 'workshops',
  summary: 'machines fixed by per-workshop secret procedures (a bench benchmark with worlds)',
  options: '<tasks per workshop>',
  load(ctx) {
    const perWorld = ctx.arg ? Number(ctx.arg) : 30;
    if (!Number.isInteger(perWorld) || perWorld < 6 || perWorld > 300) throw new Error(`tasks per workshop must be a whole number from 6 to 300; got "${ctx.arg}"`);
    return {
      tasks: tasks(1000 + ctx.seed, 8, perWorld),
      // Enough past jobs per workshop that most jobs a validation task asks about were done before.
      split: { update: 8 * Math.round(perWorld * 0.3), validation: 8 * Math.round(perWorld * 0.25) },
      description:
        'Each task asks the agent to repair, calibrate or restart a machine in a workshop. Each workshop has its own way of doing each job, ' +
        'and it depends on the machine generation (mk1 or mk2), not on the machine class or model number. The agent acts with steps ' +
        '"try: <procedure>", answered "running" or "still faulty"; it tries the four procedures of the job in a fixed order unless its ' +
        'memory shows a procedure that got a machine running under a heading that names the same job and generation.',
      reward: '1 / attempts (1.0 = running at the first try)',
      budget: { maxChars: 800, maxImages: 0 },
      agent: {
        id: 'workshop-agent/1',
        mode: 'offline',
        deterministic: true,
        async run(task: EnvTask<Truth>, memory: MemoryPayload): Promise<AgentRun> {
          const truth = task.truth as Truth;
          const first = remembered(memory, truth.job, truth.generation);
          const order = first ? [first, ...JOBS[truth.job].filter((p) => p !== first)] : [...JOBS[truth.job]];
          const steps: AgentRun['steps'] = [];
          for (const procedure of order) {
            const ok = procedure === truth.procedure;
            steps.push({ action: `try: ${procedure}`, result: ok ? 'running' : 'still faulty' });
            if (ok) return { answer: procedure, steps };
          }
          return { steps };
        },
      },
      check(task: EnvTask<Truth>, run: AgentRun) {
        const right = run.answer === (task.truth as Truth).procedure;
        return { reward: right ? 1 / run.steps.length : 0, success: right, metrics: { attempts: run.steps.length } };
      },
      explain: (task: EnvTask<Truth>) => ({
        gold: [(task.truth as Truth).procedure],
        notes: [`the procedure for ${(task.truth as Truth).job} of ${(task.truth as Truth).generation} machines here`],
      }),
    };
  },
});
