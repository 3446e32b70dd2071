// A dataset as a researcher writes it, bad lines included: what loads, what is reported as file:line, what is
// refused, and each scoring rule on real payloads.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DataEnvironment } from '../../../envs/data/environment.ts';
import { goldTexts } from '../../../engine/meta/gold.ts';
import { EXPLANATION_LIMITS } from '../../../engine/environment/explanation.ts';
import { openNamed } from '../../../api/environments.ts';
import { LIMITS, WorldSchema } from '../../../envs/data/format.ts';
import { loadDataset } from '../../../envs/data/load.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { evaluateProgram } from '../../../engine/evaluate/evaluate.ts';
import { offlineServices } from '../../support/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'data-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const offline = resolveModels({}, {});

const header = (scoring: string, extra = {}) =>
  JSON.stringify({ type: 'dataset', name: 'mini', scoring, trainShare: 0.5, ...extra });
const world = (id: string, questions: unknown[], extra = {}) =>
  JSON.stringify({
    type: 'world',
    id,
    speakers: ['Ana', 'Ben'],
    sessions: [
      {
        time: '2024-03-04T09:00:00Z',
        turns: [
          { id: `${id}:1`, speaker: 'Ana', text: 'We picked Postgres for billing.' },
          { id: `${id}:2`, speaker: 'Ben', text: 'The staging server is kestrel.' },
        ],
      },
      {
        time: '2024-03-11T09:00:00Z',
        turns: [{ id: `${id}:3`, speaker: 'Ben', text: 'Carla joins as the designer next week.' }],
      },
    ],
    questions,
    ...extra,
  });
function file(name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}
const q = (id: string, more = {}) => ({
  id,
  question: 'Which database was picked for billing?',
  answers: ['Postgres'],
  evidence: ['w1:1'],
  ...more,
});

describe('loading a dataset', () => {
  it('reports each malformed line as file:line and loads the rest', () => {
    const p = file('mixed.jsonl', [
      header('answer-containment'),
      '{ not json',
      JSON.stringify({ type: 'world', id: 'broken', sessions: [] }),
      JSON.stringify({ type: 'thing' }),
      world('w1', [q('q1'), q('q1'), q('q2', { evidence: ['w1:1', 'nope'] })]),
      world('w1', [q('q3')]),
    ]);
    const d = loadDataset(p);
    expect(d.worlds.map((w) => w.id)).toEqual(['w1']);
    expect(d.worlds[0]?.questions.map((x) => x.id)).toEqual(['q1', 'q2']);
    expect(d.worlds[0]?.questions[1]?.evidence).toEqual(['w1:1']);
    const w = d.warnings.join('\n');
    expect(w).toMatch(/mixed\.jsonl:2: not JSON/);
    expect(w).toMatch(/mixed\.jsonl:3: not a usable world: sessions: a world needs at least one session/);
    expect(w).toMatch(/mixed\.jsonl:4: a line must be \{"type": "dataset", …\} or \{"type": "world", …\}/);
    expect(w).toMatch(/mixed\.jsonl:5: question id "q1" appears twice/);
    expect(w).toMatch(/mixed\.jsonl:5: question "q2" cites evidence nope that is not a turn/);
    expect(w).toMatch(/mixed\.jsonl:6: world "w1" appears twice/);
  });

  it('refuses a file with nothing usable, naming it and its problems', () => {
    expect(() => loadDataset(file('nohead.jsonl', [world('w1', [q('q1')])]))).toThrow(
      /nohead\.jsonl has no usable header line/,
    );
    expect(() => loadDataset(file('noq.jsonl', [header('f1'), '[]']))).toThrow(
      /noq\.jsonl has nothing usable: 0 worlds, 0 questions; problems: noq\.jsonl:2/,
    );
    expect(() => loadDataset(join(dir, 'missing.jsonl'))).toThrow(/does not exist/);
  });

  it('bounds a line and a file before parsing them, and reports what it left out', () => {
    const lines = [
      header('answer-containment'),
      world('w1', [q('q1')]),
      `{"type": "world", "id": "huge", "pad": "${'x'.repeat(5000)}"}`,
      world('w2', [q('q2', { evidence: ['w2:1'] })]),
    ];
    const p = file('bounded.jsonl', lines);
    const small = { ...LIMITS, lineBytes: 2000 };
    const d = loadDataset(p, small);
    expect(d.worlds.map((w) => w.id)).toEqual(['w1', 'w2']);
    expect(d.warnings.join('\n')).toMatch(/bounded\.jsonl:3: the line is 5 kB, over the 2 kB a line may hold/);
    const cut = loadDataset(p, { ...small, fileBytes: lines.slice(0, 2).join('\n').length + 10 });
    expect(cut.worlds.map((w) => w.id)).toEqual(['w1']);
    expect(cut.warnings.join('\n')).toMatch(/bounded\.jsonl: over .*; the rest of the file is left out/);
    const json = join(dir, 'big.json');
    writeFileSync(
      json,
      JSON.stringify({ dataset: { name: 'doc', scoring: 'f1' }, worlds: [JSON.parse(world('w1', [q('q1')]))] }),
    );
    expect(() => loadDataset(json, { ...LIMITS, fileBytes: 100 })).toThrow(
      /big\.json has no usable header.*big\.json: .* over the 100 bytes a JSON dataset file may hold/,
    );
    writeFileSync(json, '{"dataset": ');
    expect(() => loadDataset(json)).toThrow(/big\.json: not JSON/);
  });

  it('reads a JSON document and a folder of files', () => {
    mkdirSync(join(dir, 'folder'));
    writeFileSync(
      join(dir, 'folder', 'a.json'),
      JSON.stringify({
        dataset: { name: 'doc', scoring: 'exact-match' },
        worlds: [JSON.parse(world('w1', [q('q1')]))],
      }),
    );
    writeFileSync(join(dir, 'folder', 'b.jsonl'), world('w2', [q('q2', { evidence: ['w2:1'] })]));
    const d = loadDataset(join(dir, 'folder'));
    expect(d.header.name).toBe('doc');
    expect(d.worlds.map((w) => w.id)).toEqual(['w1', 'w2']);
  });

  it("never reads an image outside the data file's folder: the image is refused and reported, the rest loads", async () => {
    mkdirSync(join(dir, 'imgs'));
    writeFileSync(join(dir, 'secret.png'), 'not for programs');
    symlinkSync(join(dir, 'secret.png'), join(dir, 'imgs', 'link.png'));
    for (const [path, why] of [
      ['../secret.png', /climbs out/],
      ['link.png', /symbolic link that leads outside/],
      ['/etc/passwd', /absolute path/],
    ] as const) {
      const p = join(dir, 'imgs', 'ds.jsonl');
      writeFileSync(
        p,
        `${header('answer-containment')}\n${world('w1', [q('q1')]).replace('"text":"We picked Postgres for billing."', `"text":"We picked Postgres for billing.","image":{"path":${JSON.stringify(path)}}`)}\n`,
      );
      const notes: string[] = [];
      const images = new ImageStore();
      const env = DataEnvironment.load({ path: p, models: offline, images, onNote: (n) => notes.push(n) });
      expect(notes.join('\n')).toMatch(
        new RegExp(`ds\\.jsonl:2: world "w1", turn "w1:1": image .* is refused: .*${why.source}.*; left out`),
      );
      expect((env.info().data as { warnings: string[] }).warnings.join('\n')).toMatch(why);
      const [w] = await env.worlds('train');
      expect(w?.episodes[0]?.steps[0]?.action).toBe('Ana: We picked Postgres for billing.');
      expect(images.size).toBe(0);
    }
  });

  it('brings an image inside the folder to programs as an image of the step', async () => {
    mkdirSync(join(dir, 'pics'));
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    writeFileSync(join(dir, 'pics', 'board.png'), png);
    const p = join(dir, 'pics', 'ds.jsonl');
    writeFileSync(
      p,
      `${header('answer-containment')}\n${world('w1', [q('q1')]).replace('"text":"We picked Postgres for billing."', '"text":"We picked Postgres for billing.","image":{"path":"board.png","caption":"a whiteboard"}')}\n`,
    );
    const images = new ImageStore();
    const env = DataEnvironment.load({ path: p, models: offline, images });
    const [w] = await env.worlds('train');
    const step = w?.episodes[0]?.steps[0];
    expect(step?.observation?.images?.[0]).toMatchObject({ mime: 'image/png', width: 4, caption: 'a whiteboard' });
    expect(step?.observation?.text).toBe('[Ana shared an image: a whiteboard]');
    expect(images.size).toBe(1);
  });

  it('leaves out an image inside the folder that is no readable image, with a warning naming file:line; the rest runs', async () => {
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'scan.png'), 'these bytes are no image at all');
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    writeFileSync(join(dir, 'broken', 'half.png'), png.subarray(0, 20));
    const p = join(dir, 'broken', 'ds.jsonl');
    const withImage = (text: string, path: string) => (line: string) =>
      line.replace(`"text":"${text}"`, `"text":"${text}","image":{"path":"${path}"}`);
    const line = withImage(
      'The staging server is kestrel.',
      'half.png',
    )(withImage('We picked Postgres for billing.', 'scan.png')(world('w1', [q('q1')])));
    writeFileSync(p, `${header('answer-containment')}\n${line}\n`);
    const notes: string[] = [];
    const env = DataEnvironment.load({
      path: p,
      models: offline,
      images: new ImageStore(),
      onNote: (n) => notes.push(n),
    });
    const [w] = await env.worlds('train');
    const steps = w?.episodes[0]?.steps ?? [];
    expect(steps.map((s) => s.action)).toEqual([
      'Ana: We picked Postgres for billing.',
      'Ben: The staging server is kestrel.',
    ]);
    expect(steps.map((s) => s.observation?.images ?? [])).toEqual([[], []]);
    expect(notes.join('\n')).toMatch(
      /ds\.jsonl:2: world "w1", turn "w1:1": image "scan\.png" is not an image that can be read \(.+\); left out/,
    );
    expect(notes.join('\n')).toMatch(
      /ds\.jsonl:2: world "w1", turn "w1:2": image "half\.png" is not an image that can be read \(.+\); left out/,
    );
    // Both splits read the same episodes: the warning is said once.
    await env.worlds('test');
    expect(notes.filter((n) => n.includes('scan.png'))).toHaveLength(1);
  });

  it('refuses a session time outside the years 1 to 9999 where it is read, as file:line, and the rest evaluates', async () => {
    const at = (time: string) => (line: string) => line.replace('"2024-03-11T09:00:00Z"', time);
    const p = file('times.jsonl', [
      header('answer-containment'),
      at('9e15')(world('w1', [q('q1')])),
      at('"+275760-09-13T00:00:00Z"')(world('w2', [q('q2', { evidence: ['w2:1'] })])),
      at('-62198755200000')(world('w3', [q('q3', { evidence: ['w3:1'] })])),
      at('"9999-12-31T23:59:59Z"')(world('w4', [q('q4', { evidence: ['w4:1'] }), q('q5', { evidence: ['w4:1'] })])),
    ]);
    const d = loadDataset(p);
    expect(d.worlds.map((w) => w.id)).toEqual(['w4']);
    const w = d.warnings.join('\n');
    expect(w).toMatch(/times\.jsonl:2: world "w1", session 2: time 9000000000000000 is outside the years 1 to 9999/);
    expect(w).toMatch(
      /times\.jsonl:3: world "w2", session 2: time "\+275760-09-13T00:00:00Z" is outside the years 1 to 9999/,
    );
    expect(w).toMatch(/times\.jsonl:4: world "w3", session 2: time -62198755200000 is outside the years 1 to 9999/);
    const env = DataEnvironment.load({ path: p, models: offline, images: new ImageStore() });
    for (const split of ['train', 'test'] as const) {
      for (const world of await env.worlds(split)) {
        expect(world.episodes.map((e) => e.meta.date)).toEqual([
          '2024-03-04T09:00:00.000Z',
          '9999-12-31T23:59:59.000Z',
        ]);
        expect(Number.isFinite(new Date(world.retrieveTime as number).getTime())).toBe(true);
      }
    }
  });
});

describe('the documented examples', () => {
  it('says which worlds a bad field left out, in the summary line, and refuses them with --strict', () => {
    const bad = (id: string, field: Record<string, unknown>) =>
      JSON.stringify({ ...JSON.parse(world(id, [q(`${id}-q1`), q(`${id}-q2`)])), ...field });
    const p = file('lost.jsonl', [
      header('answer-containment'),
      world('w1', [q('q1')]),
      bad('w2', { sesions: [] }),
      bad('w3', { sessions: [{ time: 'soon', turns: [{ id: 't', text: 'x' }] }] }),
    ]);
    const notes: string[] = [];
    const env = DataEnvironment.load({
      path: p,
      models: offline,
      images: new ImageStore(),
      onNote: (n) => notes.push(n),
    });
    expect(notes.join('\n')).toContain(
      'lost.jsonl:3: not a usable world: unknown key "sesions" (did you mean "sessions"?)',
    );
    expect(notes.at(-1)).toBe(
      'data: mini: 1 world, 1 question (1 scored); left out: world "w2" (2 questions), world "w3" (2 questions) (--strict refuses this)',
    );
    expect(env.info().data).toMatchObject({ worlds: 1 });
    expect(() => DataEnvironment.load({ path: p, models: offline, images: new ImageStore(), strict: true })).toThrow(
      /lost\.jsonl: left out: world "w2" \(2 questions\), world "w3" \(2 questions\) \(--strict\):\n {2}- lost\.jsonl:3: not a usable world.*\n {2}- lost\.jsonl:4: world "w3", session 1: time "soon" is not a date/,
    );
  });

  it("reads a date without a zone as UTC whatever the machine's zone, and asks a question at its own time", async () => {
    const p = file('times.jsonl', [
      header('answer-containment', { trainShare: 0.99 }),
      JSON.stringify({
        type: 'world',
        id: 'w1',
        sessions: [
          { time: '2024-03-04T09:00:00', turns: [{ id: 'w1:1', text: 'We picked Postgres for billing.' }] },
          { time: 'March 11, 2024 9:00', turns: [{ id: 'w1:2', text: 'Kestrel is staging.' }] },
        ],
        questions: [
          q('q1', { time: '2024-03-05 12:00', answers: ['2024-03-05T12:00'] }),
          q('q2', { answers: ['2024-03-12T09:00'] }),
        ],
      }),
    ]);
    // Read on a machine 5 hours behind UTC (Node reads TZ again when it changes): the clocks are the same.
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    let env: DataEnvironment;
    try {
      expect(new Date(2024, 2, 4).getTimezoneOffset()).toBe(300);
      env = DataEnvironment.load({ path: p, models: offline, images: new ImageStore() });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const [w] = await env.worlds('train');
    expect(w?.episodeTimes).toEqual([Date.parse('2024-03-04T09:00:00Z'), Date.parse('2024-03-11T09:00:00Z')]);
    expect(w?.taskTimes?.get('q1')).toBe(Date.parse('2024-03-05T12:00:00Z'));
    expect(w?.taskTimes?.has('q2')).toBe(false);
    expect(w?.tasks.find((t) => t.taskId === 'q1')?.meta.date).toBe('2024-03-05T12:00:00.000Z');
    // A program's clock reads the question's time in its retrieve; without one, a day after the last session.
    writeFileSync(
      join(dir, 'clock.ts'),
      "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ async update() {}, async retrieve(_t, ctx) { return { text: new Date(ctx.now()).toISOString(), images: [] }; } });\n",
    );
    const compiled = await compileProgram({ entryPath: join(dir, 'clock.ts') });
    if (!compiled.ok) throw new Error('clock.ts does not compile');
    const r = await evaluateProgram(compiled.program, { env, split: 'train', services: offlineServices() });
    expect(Object.fromEntries(r.tasks.map((t) => [t.taskId, t.reward]))).toEqual({ q1: 1, q2: 1 });
  });

  it("says when evidence turns are longer than the standard designs' units", () => {
    const long = 'We compared every database for billing. '.repeat(40);
    const p = file('long.jsonl', [
      header('evidence-recall'),
      JSON.stringify({
        type: 'world',
        id: 'w1',
        sessions: [
          {
            time: '2024-03-04T09:00:00Z',
            turns: [
              { id: 'w1:1', text: long },
              { id: 'w1:2', text: 'short' },
            ],
          },
        ],
        questions: [q('q1', { evidence: ['w1:1', 'w1:2'] })],
      }),
    ]);
    const notes: string[] = [];
    DataEnvironment.load({ path: p, models: offline, images: new ImageStore(), onNote: (n) => notes.push(n) });
    expect(notes.join('\n')).toContain(
      '1 of 2 evidence turns are longer than 1,200 characters, where bm25, dense and g-memory cut a unit',
    );
  });

  it("the shipped example dataset and the README's world load without a problem", () => {
    const example = loadDataset(join(import.meta.dirname, '../../../examples/qa-data/team-notes.jsonl'));
    expect(example.warnings).toEqual([]);
    expect(example.worlds.length).toBeGreaterThan(1);
    const readme = readFileSync(join(import.meta.dirname, '../../../envs/data/README.md'), 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(readme)?.[1] as string;
    expect(WorldSchema.safeParse(JSON.parse(block)).error).toBeUndefined();
  });
});

describe('scoring rules', () => {
  const payload = { text: 'Ana: We picked Postgres for billing.\nBen: The staging server is kestrel.', images: [] };
  const score = async (scoring: string, question: Record<string, unknown>, text = payload.text) => {
    const p = file(`${scoring}.jsonl`, [header(scoring, { trainShare: 0.99 }), world('w1', [q('q1', question)])]);
    const env = DataEnvironment.load({ path: p, models: offline, images: new ImageStore() });
    const [w] = await env.worlds('train');
    return env.run(w?.tasks[0] as never, { ...payload, text });
  };

  it('scores evidence recall, containment, F1 and multiple choice offline', async () => {
    expect((await score('evidence-recall', {})).reward).toBe(1);
    expect((await score('evidence-recall', {}, 'nothing relevant')).reward).toBe(0);
    expect((await score('answer-containment', {})).reward).toBe(1);
    expect((await score('answer-containment', { answers: ['MongoDB'] })).reward).toBe(0);
    // Numbers are answers too, read as their text.
    expect(
      (await score('answer-containment', { question: 'How many servers?', answers: [3] }, 'We run 3 servers.')).reward,
    ).toBe(1);
    const f1 = await score('f1', { answers: ['Postgres for billing'] });
    expect(f1.reward).toBeGreaterThan(0.5);
    expect(f1.reward).toBeLessThan(1);
    const right = await score('multiple-choice', { choices: ['MongoDB', 'Postgres'], correct: 1 });
    expect(right.reward).toBe(1);
    expect(right.trajectory.answer).toBe('B. Postgres');
    expect((await score('multiple-choice', { choices: ['MongoDB', 'Postgres'], correct: 0 })).reward).toBe(0);
    // A tie (here: a payload that names neither) goes to the first choice, as the README says; numbers are choices too.
    const tie = await score('multiple-choice', { choices: [2, 3], correct: 1 }, 'nothing relevant');
    expect([tie.trajectory.answer, tie.reward]).toEqual(['A. 2', 0]);
  });

  it("tells the meta agent a multiple-choice question's right choice, whether by `correct` or by `answers`", () => {
    const p = file('explain.jsonl', [
      header('multiple-choice'),
      world('w1', [
        q('q1', { answers: undefined, choices: ['MongoDB', 'Postgres'], correct: 1 }),
        q('q2', { choices: ['Postgres', 'MongoDB'] }),
      ]),
    ]);
    const env = DataEnvironment.load({ path: p, models: offline, images: new ImageStore() });
    expect(env.explain('q1')).toMatchObject({
      gold: ['Postgres'],
      choices: [
        { letter: 'A', text: 'MongoDB', gold: false },
        { letter: 'B', text: 'Postgres', gold: true },
      ],
    });
    expect(env.explain('q2')).toMatchObject({
      gold: ['Postgres'],
      choices: [
        { letter: 'A', text: 'Postgres', gold: true },
        { letter: 'B', text: 'MongoDB', gold: false },
      ],
    });
    expect(env.explain('q1')?.evidence).toEqual([
      {
        id: 'w1:1',
        text: 'We picked Postgres for billing.',
        session: 1,
        time: '2024-03-04T09:00:00.000Z',
        speaker: 'Ana',
      },
    ]);
    // What the offline agent looks for in a payload: the right choice (and the evidence turn), never a wrong choice.
    const gold = goldTexts(env.explain('q1'));
    expect(gold[0]).toBe('Postgres');
    expect(gold.some((g) => g.includes('MongoDB'))).toBe(false);
  });

  it('states a question longer than an explanation may hold cut to the bound, not refused', async () => {
    const long = `${'Which database, of all the ones discussed at length, '.repeat(600)}was picked?`;
    const p = file('long.jsonl', [header('answer-containment'), world('w1', [q('q1', { question: long })])]);
    const env = await openNamed(`data:${p}`, {
      models: offline,
      images: new ImageStore(),
      seed: 0,
      onNote: () => undefined,
    });
    const e = env.env.explain?.('q1');
    expect(e?.question).toHaveLength(EXPLANATION_LIMITS.questionChars);
    expect(e?.gold).toEqual(['Postgres']);
  });

  it('says which model a rule needs, and refuses a dataset no question of which can be scored', () => {
    const p = file('judge.jsonl', [header('llm-judge'), world('w1', [q('q1')])]);
    expect(() => DataEnvironment.load({ path: p, models: offline, images: new ImageStore() })).toThrow(
      /needs a judge model: set AUTOMEMO_JUDGE_MODEL/,
    );
    // Offline, exact match could only ever score 0 (the reader answers with a whole line): refused, with the reason.
    const exact = file('exact.jsonl', [header('exact-match'), world('w1', [q('q1')])]);
    expect(() => DataEnvironment.load({ path: exact, models: offline, images: new ImageStore() })).toThrow(
      /"exact-match" needs a model to answer \(AUTOMEMO_EXECUTOR_MODEL.*\): offline, the reader answers with a whole line of the payload, which never equals a short gold answer/,
    );
    const none = file('none.jsonl', [header('multiple-choice'), world('w1', [q('q1')])]);
    expect(() => DataEnvironment.load({ path: none, models: offline, images: new ImageStore() })).toThrow(
      /no question has what scoring "multiple-choice" needs/,
    );
  });
});
