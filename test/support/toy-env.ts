// A tiny deterministic environment for protocol tests: episodes teach door codes, tasks ask for them, and the
// checker gives 1 when the payload contains the right code. It can be told to fail like infrastructure.
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import { type Environment, type EnvironmentInfo, InfraError, type Split, type TaskOutcome, type World } from '../../engine/environment/contract.ts';

const CODES = ['amber', 'basil', 'cedar', 'delta', 'ember', 'flint', 'grove', 'heron', 'iris', 'jade'];

export class ToyEnvironment implements Environment {
  /** taskId → how many more runs should fail as infrastructure. */
  readonly infraFailures = new Map<string, number>();
  runs = 0;

  constructor(private readonly budget = { maxChars: 400, maxImages: 0 }) {}

  info(): EnvironmentInfo {
    return { name: 'toy', mode: 'offline', reward: 'code found', budget: this.budget, agentId: 'toy-checker', deterministic: true, data: {} };
  }

  async worlds(split: Split): Promise<World[]> {
    return ['w1', 'w2'].map((w, wi) => {
      const doors = Array.from({ length: 5 }, (_, i) => wi * 5 + i);
      const episodes: EpisodeRecorder[] = [0, 1].map((e) => ({
        taskId: `${w}/ep${e}`,
        env: 'toy',
        instruction: `learn doors of ${w}, part ${e}`,
        initial: {},
        steps: doors.filter((_, i) => i % 2 === e).map((d, i) => ({ index: i, action: `The code for door-${d} is ${CODES[d]}` })),
        outcome: { reward: 1, success: true },
        meta: {},
      }));
      const tasks: PartialRecorder[] = doors
        .filter((d) => (split === 'train' ? d % 5 === 0 : d % 5 !== 0))
        .map((d) => ({ taskId: `${w}/door-${d}`, env: 'toy', instruction: `What is the code for door-${d}?`, initial: {}, meta: {} }));
      return { id: w, episodes, tasks, episodeTimes: [Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)] };
    });
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    this.runs++;
    const left = this.infraFailures.get(task.taskId) ?? 0;
    if (left > 0) {
      this.infraFailures.set(task.taskId, left - 1);
      throw new InfraError(`toy tool crashed on ${task.taskId}`);
    }
    const door = Number(task.taskId.split('door-')[1]);
    const found = payload.text.includes(CODES[door] as string);
    return { reward: found ? 1 : 0, success: found, metrics: { found: found ? 1 : 0 }, trajectory: { answer: found ? CODES[door] : '?', steps: [] } };
  }

  async samples() {
    const [w] = await this.worlds('train');
    return { episodes: w?.episodes ?? [], tasks: w?.tasks ?? [] };
  }

  scenario(taskId: string): string {
    return taskId.split('/')[0] as string;
  }
}
