// automemo demo: the offline tour. It quick-examines every seed program, runs each on the sample episodes and
// tasks, prints the reports and writes them into a run folder whose path it prints last.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { describeModel, resolveModels } from '../../llm/models.ts';
import { repoRoot, seedsDir } from '../../../sandbox/paths.ts';
import { closeHostServices, createHostServices } from '../../../sandbox/primitives/index.ts';
import { quickExam, type QuickExamReport } from '../../../sandbox/quick-exam.ts';
import { parse } from '../args.ts';
import { formatQuickExam } from '../format-quick-exam.ts';
import { bold } from '../style.ts';

export const usage = `automemo demo [--out DIR]

Offline tour: quick-examines the seed memo programs on sample episodes and tasks
and prints the reports. Writes them to DIR (default search-trees/runs/demo-<time>).`;

const Args = z.object({ positionals: z.array(z.string()).max(0), out: z.string().optional() });

export function seedPrograms(): string[] {
  return readdirSync(seedsDir, { withFileTypes: true })
    .filter((d) => (d.isFile() && d.name.endsWith('.ts')) || d.isDirectory())
    .map((d) => join(seedsDir, d.name))
    .sort();
}

export async function run(argv: string[]): Promise<number> {
  const a = parse(argv, { out: { type: 'string' } }, Args);
  const models = resolveModels();
  const services = createHostServices(models);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = a.out ?? join(repoRoot, 'search-trees', 'runs', `demo-${stamp}`);
  const mode = models.memo || models.embedding ? 'model' : 'offline';
  process.stdout.write(
    `${bold('automemo demo')} — mode: ${mode} (embedding ${describeModel(models.embedding)}, memo ${describeModel(models.memo)})\n\n`,
  );
  const reports: QuickExamReport[] = [];
  try {
    for (const program of seedPrograms()) {
      const report = await quickExam({ entryPath: program }, { services });
      reports.push(report);
      process.stdout.write(`${formatQuickExam(report)}\n\n`);
    }
  } finally {
    await closeHostServices();
  }
  mkdirSync(out, { recursive: true });
  const file = join(out, 'quick-exam.json');
  writeFileSync(file, `${JSON.stringify({ mode, reports }, null, 2)}\n`);
  const passed = reports.filter((r) => r.passed).length;
  process.stdout.write(`${passed}/${reports.length} seed programs passed quick examination.\n`);
  process.stdout.write(`report: ${relative(process.cwd(), file) || file}\n`);
  return passed === reports.length ? 0 : 1;
}
