// Terminal control sequences from outside never reach the user's terminal: ids and scenarios of a data file, a run
// folder's run.json (report, view's first line) and a program's thrown error (check) are printed with their control
// characters escaped — clear screen, window title, clipboard writes (OSC 52), hidden links (OSC 8), C1 controls,
// bidi overrides — and JSON output stays JSON with the same values. Every command prints through one writer
// (cli/terminal.ts); these cases come in through three doors of it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { automemoInProcess as automemo, bin, cliEnv } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'control-characters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIPBOARD = '\u001b]52;c;ZXZpbA==\u0007';
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const LINK = '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007';
const C1 = '\u009b31m';
const BIDI = '\u202egnp.exe';
/** No control character a terminal acts on, nor a bidi override. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const dataFile = join(dir, 'hostile.jsonl');
const sessions = [{ time: '2024-03-04T09:00:00Z', turns: [{ id: 't1', speaker: 'Ana', text: 'We picked Postgres for billing.' }] }];
const question = (i: number, scenario: string) => ({ id: `q${i}${i === 3 ? CLEAR : ''}`, question: 'Which database?', scenario, answers: ['Postgres'] });
writeFileSync(
  dataFile,
  [
    { type: 'dataset', name: 'hostile', scoring: 'answer-containment', trainShare: 0.5 },
    {
      type: 'world',
      id: `w1${TITLE}`,
      sessions,
      // q3 twice: the duplicate's warning names its id.
      questions: [...Array.from({ length: 12 }, (_, i) => question(i, i % 2 ? `clip${CLIPBOARD}` : `c1${C1}${BIDI}${LINK}`)), question(3, 'x')],
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n'),
);

const expectEscaped = (text: string) => {
  expect(text).not.toMatch(RAW);
  return text;
};

describe('control characters from outside are escaped in what the CLI prints', () => {
  it('from a data file: ids and scenarios in the notes, the tables and --json (which stays JSON with the same values)', async () => {
    const r = await automemo('eval', '--env', `data:${dataFile}`, '--program', 'bm25', '--out', join(dir, 'eval'));
    expect(r.code, r.err).toBe(0);
    expectEscaped(r.out);
    expectEscaped(r.err);
    expect(r.err).toContain('question id "q3\\u001b[2J\\u001b[H" appears twice');
    expect(r.out).toContain('clip\\u001b]52;c;ZXZpbA==\\u0007');
    expect(r.out).toContain('c1\\u009b31m\\u202egnp.exe\\u001b]8;;https://evil.example/\\u0007click');
    const json = await automemo('eval', '--env', `data:${dataFile}`, '--program', 'bm25', '--out', join(dir, 'eval-json'), '--json');
    expectEscaped(json.out);
    const scenarios = Object.keys((JSON.parse(json.out) as { stats: { byScenario: Record<string, unknown> } }).stats.byScenario);
    expect(scenarios.sort()).toEqual([`c1${C1}${BIDI}${LINK}`, `clip${CLIPBOARD}`]);
  });

  it("from a run folder: report and view's first line", async () => {
    const run = join(dir, 'run');
    const searched = await automemo('search', '--env', `data:${dataFile}`, '--budget', '1', '--seeds', 'none', '--no-test', '--out', run);
    expect(searched.code, searched.err).toBe(0);
    expectEscaped(searched.out);
    // A run folder from someone else: its run.json names its environment as they like.
    const runJson = JSON.parse(readFileSync(join(run, 'run.json'), 'utf8'));
    runJson.options.env = `data:x${CLEAR}${TITLE}`;
    writeFileSync(join(run, 'run.json'), JSON.stringify(runJson));
    const report = await automemo('report', run);
    expect(report.code, report.err).toBe(0);
    expect(expectEscaped(report.out)).toContain('data:x\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007');
    expectEscaped(report.err);

    const child = spawn(process.execPath, [bin, 'view', run, '--port', '0'], { cwd: repoRoot, env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout.on('data', (d) => {
        text += d;
        if (text.includes('\n')) resolve(text.split('\n')[0] as string);
      });
    });
    child.kill('SIGINT');
    expect(expectEscaped(first)).toContain('env data:x\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007');
  }, 180_000);

  it("from a program: check's report of the error it threw", async () => {
    mkdirSync(join(dir, 'thrower'));
    const program = join(dir, 'thrower', 'index.ts');
    writeFileSync(
      program,
      `import { defineMemo } from 'automemo/contract';
export default defineMemo({
  async update() { throw new Error(${JSON.stringify(`boom ${CLIPBOARD}${LINK}${CLEAR}`)}); },
  async retrieve() { return { text: '', images: [] }; },
});
`,
    );
    const r = await automemo('check', program);
    expect(r.code).toBe(1);
    expect(expectEscaped(r.out)).toContain('boom \\u001b]52;c;ZXZpbA==\\u0007\\u001b]8;;https://evil.example/\\u0007click');
    expectEscaped(r.err);
  });
});
