// How a model's edits are read and applied: search/replace blocks (in fences or not, named the ways models name
// files), files whole (the old form), new files; hostile output (paths out of the folder, too many edits, a giant
// reply, an unclosed block) refused with what is wrong; a block that matches nowhere or twice named with the file's
// nearest lines or its matches; and the edits between two programs, which give the second exactly when applied.
import { describe, expect, it } from 'vitest';
import { applyEdits, MAX_FILE_CHARS, nearestLines } from '../../../../engine/meta/model/apply-edits.ts';
import {
  EditFormatError,
  type FileEdit,
  MAX_EDITS,
  MAX_REPLY_CHARS,
  parseEdits,
  renderEdits,
} from '../../../../engine/meta/model/edit-format.ts';
import { editsBetween } from '../../../../engine/meta/model/edits-between.ts';

const program = [
  "import { defineMemo } from 'automemo/contract';",
  'export const config = { topK: 8 };',
  'export default defineMemo({',
  '  update() {},',
  "  retrieve() { return { text: 'x', images: [] }; },",
  '});',
  '',
].join('\n');

describe("a reply's edits", () => {
  it('are search/replace blocks after a file line, in a fence or not; a block without a name keeps the last one named', () => {
    const reply = [
      'Raising topK.',
      '// file: index.ts',
      '<<<<<<< SEARCH',
      'export const config = { topK: 8 };',
      '=======',
      'export const config = { topK: 12 };',
      '>>>>>>> REPLACE',
      '```ts',
      '<<<<<<< SEARCH',
      '  update() {},',
      '=======',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const edits = parseEdits(reply);
    expect(edits).toEqual([
      {
        kind: 'replace',
        file: 'index.ts',
        search: ['export const config = { topK: 8 };'],
        replace: ['export const config = { topK: 12 };'],
      },
      { kind: 'replace', file: 'index.ts', search: ['  update() {},'], replace: [] },
    ]);
    const got = applyEdits({ 'index.ts': program }, edits);
    expect(got.failures).toEqual([]);
    expect(got.files['index.ts']).toBe(program.replace('topK: 8', 'topK: 12').replace('  update() {},\n', ''));
  });

  it("read the file named Aider's way (its name alone before the fence) and a new file from an empty SEARCH", () => {
    const reply = [
      'units.ts',
      '```typescript',
      '<<<<<<< SEARCH',
      '=======',
      'export const unit = 1;',
      '>>>>>>> REPLACE',
      '```',
      '**index.ts**',
      '```',
      '<<<<<<< SEARCH',
      "import { defineMemo } from 'automemo/contract';",
      '=======',
      "import { defineMemo } from 'automemo/contract';",
      "import { unit } from './units.ts';",
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const got = applyEdits({ 'index.ts': program }, parseEdits(reply));
    expect(got.failures).toEqual([]);
    expect(got.files['units.ts']).toBe('export const unit = 1;\n');
    expect(got.files['index.ts']?.split('\n')[1]).toBe("import { unit } from './units.ts';");
  });

  it('still take a whole file in the old form, named or (alone) the largest fenced program', () => {
    const whole = `Here it is.\n\`\`\`ts\n// file: index.ts\n${program}\`\`\`\n\`\`\`ts\n// file: extra.ts\nexport const x = 1;\n\`\`\``;
    expect(parseEdits(whole)).toEqual([
      { kind: 'whole', file: 'index.ts', text: program },
      { kind: 'whole', file: 'extra.ts', text: 'export const x = 1;\n' },
    ]);
    expect(parseEdits(`\`\`\`ts\n${program}\`\`\``)).toEqual([{ kind: 'whole', file: 'index.ts', text: program }]);
    expect(parseEdits(program)).toEqual([{ kind: 'whole', file: 'index.ts', text: program }]);
    // A fence holding only blocks is not a file.
    expect(
      parseEdits(
        '```ts\n// file: index.ts\n<<<<<<< SEARCH\n  update() {},\n=======\n  update() { },\n>>>>>>> REPLACE\n```',
      ).map((e) => e.kind),
    ).toEqual(['replace']);
  });

  it('written by renderEdits read back the same', () => {
    const edits: FileEdit[] = [
      { kind: 'replace', file: 'index.ts', search: ['a', '', 'b'], replace: [''] },
      { kind: 'replace', file: 'lib/new.ts', search: [], replace: ['x', 'y'] },
      { kind: 'whole', file: 'other.ts', text: 'const z = 1;\n' },
    ];
    expect(parseEdits(renderEdits(edits))).toEqual(edits);
  });

  it("never name a file outside the program's folder, and are bounded before they are read", () => {
    for (const name of ['../escape.ts', '/etc/cron.ts', 'a/../../b.ts', 'index.js', '.hidden.ts', 'dir\\\\x.ts']) {
      expect(() => parseEdits(`// file: ${name}\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE`), name).toThrow(
        EditFormatError,
      );
    }
    expect(() => parseEdits(`\`\`\`ts\n// file: ../../x.ts\n${program}\`\`\``)).toThrow(/plain relative paths/);
    const many = Array.from(
      { length: MAX_EDITS + 1 },
      (_, i) => `// file: f${i}.ts\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE`,
    ).join('\n');
    expect(() => parseEdits(many)).toThrow(`more than ${MAX_EDITS} edits`);
    expect(() => parseEdits('x'.repeat(MAX_REPLY_CHARS + 1))).toThrow(/characters, more than/);
    expect(() => parseEdits('// file: index.ts\n<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;')).toThrow(
      /not closed .*cut off/,
    );
    expect(() => parseEdits('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE')).toThrow(/names no file/);
    expect(() => parseEdits('// file: index.ts\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE')).toThrow(/no ======= line/);
    // An edit that would grow a file past its bound is not applied.
    const big = applyEdits({ 'index.ts': program }, [
      { kind: 'replace', file: 'index.ts', search: ['});'], replace: ['});', `// ${'x'.repeat(MAX_FILE_CHARS)}`] },
    ]);
    expect(big.failures[0]?.problem).toMatch(/more than 1000000/);
    expect(big.files['index.ts']).toBe(program);
  });
});

describe('an edit that does not match exactly once', () => {
  it("is not applied and says where the file's nearest lines are, or where its several matches are", () => {
    const edits = parseEdits(
      [
        '// file: index.ts',
        '<<<<<<< SEARCH',
        'export const config = { topK: 10 };', // the model misremembered the value
        'export default defineMemo({',
        '=======',
        'export const config = { topK: 12 };',
        'export default defineMemo({',
        '>>>>>>> REPLACE',
        '<<<<<<< SEARCH',
        '  update() {},',
        '=======',
        '  update() { return; },',
        '>>>>>>> REPLACE',
      ].join('\n'),
    );
    const got = applyEdits({ 'index.ts': `${program}// update() {},\n  update() {},\n` }, edits);
    expect(got.applied).toBe(0);
    expect(got.failures[0]).toMatchObject({
      index: 1,
      file: 'index.ts',
      problem: expect.stringMatching(/not in the file/),
      nearest: { from: 1, to: 5 },
    });
    expect(got.failures[0]?.nearest?.lines).toContain('export const config = { topK: 8 };');
    expect(got.failures[1]?.problem).toMatch(/appear 2 times \(at lines 4, 8\)/);
    expect(got.failures[1]?.nearest).toBeUndefined();
    expect(
      applyEdits({ 'index.ts': program }, [{ kind: 'replace', file: 'index.ts', search: [], replace: ['x'] }])
        .failures[0]?.problem,
    ).toMatch(/SEARCH part is empty but index.ts exists/);
    expect(
      applyEdits({ 'index.ts': program }, [{ kind: 'replace', file: 'nope.ts', search: ['a'], replace: ['b'] }])
        .failures[0]?.problem,
    ).toMatch(/there is no file nope.ts/);
  });

  it('finds the nearest lines by likeness when no line is equal', () => {
    const lines = ['const a = 1;', 'function rankTurnsByScore(turns) {', '  return turns;', '}'];
    expect(nearestLines(lines, ['function rankTurnByScores(turns, k) {'])?.lines).toContain(
      'function rankTurnsByScore(turns) {',
    );
    expect(nearestLines(lines, ['zzzz qqqq'])).toBeUndefined();
  });
});

describe('the edits between two programs', () => {
  it('give the second program exactly when applied to the first, a rewritten file whole', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed >>> 8) % n;
    };
    const pool = ['', '}', '  return x;', 'const a = 1;', '// note', 'if (x) {', '  y++;', 'export const config = {};'];
    for (let round = 0; round < 200; round++) {
      const from = Array.from({ length: 5 + rand(60) }, () => pool[rand(pool.length)] as string);
      const to = from.slice();
      for (let k = rand(6); k >= 0; k--) {
        const at = rand(to.length + 1);
        const op = rand(3);
        if (op === 0) to.splice(at, 1);
        else if (op === 1) to.splice(at, 0, `line ${round}.${k}`);
        else to[Math.min(at, to.length - 1)] = `changed ${k}`;
      }
      const a = { 'index.ts': `${from.join('\n')}\n` };
      const b = { 'index.ts': `${to.join('\n')}\n`, ...(rand(4) === 0 ? { 'more.ts': 'export const m = 1;\n' } : {}) };
      const edits = editsBetween(a, b);
      const got = applyEdits(a, parseEdits(renderEdits(edits)));
      expect(got.failures, `round ${round}`).toEqual([]);
      expect(got.files, `round ${round}`).toEqual({ ...a, ...b });
    }
    const long = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`).join('\n') + '\n';
    const oneLine = editsBetween(
      { 'index.ts': long },
      { 'index.ts': long.replace('const v100 = 100;', 'const v100: number = 100;') },
    );
    expect(oneLine).toEqual([
      {
        kind: 'replace',
        file: 'index.ts',
        search: ['const v99 = 99;', 'const v100 = 100;', 'const v101 = 101;'],
        replace: ['const v99 = 99;', 'const v100: number = 100;', 'const v101 = 101;'],
      },
    ]);
    expect(editsBetween({ 'index.ts': long }, { 'index.ts': 'export default 1;\n' })).toEqual([
      { kind: 'whole', file: 'index.ts', text: 'export default 1;\n' },
    ]);
  });
});
