// The evidence an analysis reads, within one budget of memory characters spent where it informs: a success shows the
// lines holding the gold with their neighbours and heading, a failure how its memory starts and where the question's
// words are, and says when the gold is not in it; what decided a case (ground truth, checker's note, the decisive
// step) is never cut; the header counts what a reader needs to judge redundancy.
import { describe, expect, it } from 'vitest';
import type { Explanation } from '../../../engine/environment/contract.ts';
import { renderExplanation } from '../../../engine/environment/explanation.ts';
import { clusters, renderCluster } from '../../../engine/meta/evidence.ts';
import { LIMITS } from '../../../engine/meta/evidence-limits.ts';
import { memoryExcerpt } from '../../../engine/meta/memory-excerpt.ts';
import { parentContext, scoredTask } from '../../support/parent-context.ts';

const GOLD = 'Maria: I felt like I was in a fairy tale! The water sounded so calming.';
const turn = (i: number) =>
  `Speaker ${i % 2 ? 'John' : 'Maria'}: filler turn number ${i} about nothing in particular here.`;

/** A memory of `lines` turns under dated headings, ~20,000 characters for 275, the gold at `goldAt` when given. */
function memory(lines: number, goldAt?: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 10 === 0) out.push(`[${1 + i / 10} May 2023]`);
    out.push(i === goldAt ? GOLD : turn(i));
  }
  return out.join('\n');
}

const explain = (id: string): Explanation => ({
  question: `What was it like at the desert in Oregon for ${id}?`,
  scenario: 'single-hop',
  gold: ['Like being in a fairy tale'],
  evidence: [{ id: 'D18:7', text: GOLD.replace(/^Maria: /, ''), session: 18, speaker: 'Maria' }],
});

const lineOf = (text: string, line: string) => text.split('\n').indexOf(line) + 1;

/** The text of a case's memory block: the lines between its quotes. */
const quoted = (memoryText: string) => /"""\n([\s\S]*)\n"""/.exec(memoryText)?.[1] ?? '';

describe('the evidence of an analysis', () => {
  it('shows the gold line of a 20,000-character memory with the gold in the middle, within the budget', () => {
    const payload = memory(275, 155);
    expect(payload.length).toBeGreaterThan(19_000);
    expect(payload.length).toBeLessThanOrEqual(LIMITS.memoryChars);
    const tasks = ['s1', 's2', 'f1', 'f2'].map((id) => scoredTask(id, 'all', id.startsWith('s') ? 1 : 0));
    const ctx = parentContext(tasks, {
      payloads: new Map([
        ['s1', payload],
        ['s2', memory(275, 20)],
        ['f1', memory(275)],
        ['f2', memory(275, 250)],
      ]),
      questions: new Map([['f1', 'What was Speaker 77 saying about the desert in Oregon?']]),
      explain,
    });
    const [cluster] = clusters(ctx);
    if (!cluster) throw new Error('no cluster');
    // A cluster with failures shows its best success and its two worst failures.
    expect(cluster.successes.map((c) => c.taskId)).toEqual(['s1']);
    expect(cluster.failures.map((c) => c.taskId).sort()).toEqual(['f1', 'f2']);
    const [s1] = cluster.successes;
    const shown = quoted(s1?.memory ?? '');
    // The gold line, the line either side and the heading above it; the rest left out where marked.
    expect(s1?.memory).toContain(`the gold on line ${lineOf(payload, GOLD)}`);
    // The gold line's record is shown whole in the ground truth above: the line refers to it.
    expect(shown).toContain(`${turn(154)}\nMaria: «evidence D18:7»\n${turn(156)}`);
    expect(shown).toMatch(
      /^\(… \d+ lines omitted …\)\n\[16 May 2023\]\n\(… 4 lines omitted …\)\nSpeaker Maria: filler turn number 154/,
    );
    expect(shown).toMatch(/\(… \d+ lines omitted …\)$/);
    // The header counts the whole memory for judging redundancy.
    expect(s1?.memory).toContain(
      `Memory the program returned (303 lines, ${payload.length.toLocaleString('en-US')} characters, 28 headings, 0 repeated`,
    );
    // All the cases' memory lines together stay within the budget.
    const cases = [...cluster.successes, ...cluster.failures];
    const memoryChars = cases.reduce(
      (n, c) => n + quoted(c.memory).replace(/\(… \d+ lines? omitted …\)\n?/g, '').length,
      0,
    );
    expect(memoryChars).toBeLessThanOrEqual(LIMITS.evidenceMemoryChars);
    // What decided each case is whole.
    for (const c of cases)
      expect(renderCluster(cluster)).toContain(`Ground truth:\n${renderExplanation(explain(c.taskId))}\n`);
  });

  it("shows a failure's first lines and the lines holding the question's words, and says when the gold is not in it", () => {
    const tasks = [scoredTask('f1', 'all', 0), scoredTask('f2', 'all', 0)];
    const ctx = parentContext(tasks, {
      payloads: new Map([
        ['f1', memory(275)],
        ['f2', memory(275, 250)],
      ]),
      questions: new Map([['f1', 'What did Speaker 7 say in filler turn number 233?']]),
      trajectories: new Map([['f1', [{ action: 'answer from memory', observation: turn(12) }]]]),
      explain,
    });
    const [cluster] = clusters(ctx);
    const f1 = cluster?.failures.find((c) => c.taskId === 'f1');
    const f2 = cluster?.failures.find((c) => c.taskId === 'f2');
    expect(f1?.memory).toContain('; the gold not in it)');
    expect(quoted(f1?.memory ?? '')).toMatch(/^\[1 May 2023\]\nSpeaker Maria: filler turn number 0/);
    // The rarest of the question's words ("233") picks its line out of 275 alike.
    expect(quoted(f1?.memory ?? '')).toContain(turn(233));
    // The decisive step is whole.
    expect(renderCluster(cluster!)).toContain(`What the agent did:\n1. answer from memory -> ${turn(12)}\n`);
    // A failure whose memory holds the gold shows where.
    expect(f2?.memory).toContain(`the gold on line ${lineOf(memory(275, 250), GOLD)}`);
    expect(quoted(f2?.memory ?? '')).toContain('Maria: «evidence D18:7»');
  });

  it("shows a task's answer and gold once when its memory holds them too, and a line shown nowhere else whole", () => {
    const ANSWER = 'John: We went to the desert in Oregon last spring, and it was hot.';
    const payload = memory(40, 25).replace(turn(30), ANSWER);
    const task = { ...scoredTask('f1', 'all', 0), answer: ANSWER };
    const ctx = parentContext([task], {
      payloads: new Map([['f1', payload]]),
      questions: new Map([['f1', 'What was it like at the desert in Oregon?']]),
      trajectories: new Map([['f1', [{ action: 'answer from memory', observation: ANSWER }]]]),
      explain,
    });
    const [cluster] = clusters(ctx);
    const text = renderCluster(cluster!);
    const times = (s: string) => text.split(s).length - 1;
    // The record (the gold line without its speaker) and the answer each once, where the case first shows them.
    expect(times(GOLD.replace(/^Maria: /, ''))).toBe(1);
    expect(times(ANSWER)).toBe(1);
    expect(text).toContain(
      `Agent's answer: ${ANSWER}\nWhat the agent did:\n1. answer from memory -> «the agent's answer»\n`,
    );
    // The memory keeps its lines where they are, each copy as its reference; the header still says where the gold is.
    const f1 = cluster?.failures[0]?.memory ?? '';
    expect(f1).toContain(`the gold on line ${lineOf(payload, GOLD)}`);
    expect(quoted(f1)).toContain(`Maria: «evidence D18:7»`);
    expect(quoted(f1)).toContain(`«the agent's answer»`);
    // A line shown nowhere above stays whole.
    expect(quoted(f1)).toContain(turn(24));
  });

  it('refers a later task to a text an earlier task of the evidence showed whole, naming that task', () => {
    const record = GOLD.replace(/^Maria: /, '');
    const ctx = parentContext([scoredTask('s1', 'all', 1), scoredTask('f1', 'all', 0)], {
      payloads: new Map([
        ['s1', memory(30, 12)],
        ['f1', memory(30)],
      ]),
      trajectories: new Map([['f1', [{ action: 'answer from memory', observation: GOLD }]]]),
      explain: (id) => (id === 's1' ? explain(id) : { question: `question ${id}`, gold: ['Yes'] }),
    });
    const text = renderCluster(clusters(ctx)[0]!);
    expect(text.split(record).length - 1).toBe(1);
    expect(text).toContain('1. answer from memory -> Maria: «evidence D18:7, task s1»\n');
  });

  it('counts repeated and near-empty lines with examples, and shows a short memory whole', () => {
    const short = [
      '[8 May 2023]',
      'Gina: Keep it up!',
      'Gina: ;)',
      'Jon: Thanks, Gina, I will open the studio on Friday.',
      'Gina: ;)',
    ].join('\n');
    const x = memoryExcerpt(short, { gold: ['open the studio on Friday'], success: true, chars: 1000 });
    expect(x.text).toBe(
      `Memory the program returned (5 lines, ${short.length} characters, 1 heading, 1 repeated ("Gina: ;)"), 2 under 5 words ("Gina: Keep it up!", "Gina: ;)"); the gold on line 4), whole:\n"""\n${short}\n"""`,
    );
  });

  it('windows a one-line memory of 20,000 characters around its gold, whatever the share', () => {
    const line = `${'x'.repeat(9_000)} ${GOLD} ${'y'.repeat(10_900)}`;
    const x = memoryExcerpt(line, { gold: [GOLD], success: true, chars: 300 });
    const shown = quoted(x.text);
    expect(shown).toContain(GOLD);
    expect(shown).toMatch(/^\[… \d+ characters\] x+ Maria: I felt/);
    expect(shown.length).toBeLessThan(1_000);
  });
});
