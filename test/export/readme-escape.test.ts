// What an exported package's README shows comes from a run folder anyone can edit, a model's description and the
// user's settings: each value is escaped for where it lands, so no value becomes HTML or Markdown in a renderer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fillMarkdown, markdownText } from '../../export/markdown.ts';
import { writeTextFiles } from '../../export/package-files.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SCRIPT = '<script>alert(1)</script>';

/** Every value the templates take, each as hostile as it can be for its place. */
const values = {
  name: 'automemo-memory-locomo-root',
  version: '0.1.0',
  node: `n1${SCRIPT}`,
  description: `remembers more ${SCRIPT} <img src=x onerror=alert(2)> [click](javascript:alert(3)) | fake | cell |\n# heading`,
  chosenBy: 'by name',
  run: 'run`<script>alert(4)</script>`',
  env: `locomo${SCRIPT}`,
  episodes: 3,
  reward: `F1 <b onmouseover=alert(5)>`,
  validation: '0.500',
  n: 2,
  lcb: '0.100',
  test: '—',
  shipped: `every world in one ${SCRIPT} | cell`,
  hash: 'abc|def`<i>x</i>',
  maxChars: 2000,
  maxImages: 0,
  memo: `gpt\n\n<script>alert(6)</script>`,
  embed: 'offline',
  bin: 'automemo-memory-locomo-root-mcp',
  exampleTask: "What's next?\\n```\\n<script>alert(7)</script>",
  heapMb: 128,
  cpuS: 1,
  wallS: 10,
  nativeBundled: 'yes',
  platform: 'linux-x64',
  abi: '115',
};

describe('exported README', () => {
  it('holds no raw HTML and no Markdown from any value: text escaped, code kept closed, table cells kept', () => {
    const out = mkdtempSync(join(tmpdir(), 'readme-escape-'));
    dirs.push(out);
    writeTextFiles(out, { name: values.name }, values, true);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    // Outside code no tag of any value opens; inside code a renderer shows it as typed.
    const prose = readme
      .replace(/^```[\s\S]*?^```/gm, '')
      .split('\n')
      .map((l) => l.split('`').filter((_, i) => i % 2 === 0).join(''))
      .join('\n');
    expect(prose).not.toMatch(/<[a-z/!]/i);
    expect(readme).toContain("instruction: 'What's next?\\n'''\\n<script>alert(7)</script>' });");
    expect(readme).toContain('remembers more &lt;script&gt;alert\\(1\\)&lt;/script&gt;');
    expect(readme).toContain('\\[click\\]\\(javascript:alert\\(3\\)\\)');
    // The description's "|" and line break stay inside its table cell.
    const rows = readme.split('\n').filter((l) => l.startsWith('| what it is'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.split(/(?<!\\)\|/).length).toBe(4);
    // A backtick in the run folder's name cannot end its code span.
    expect(readme).toContain("search run `run'<script>alert(4)</script>'` on the");
    // Every fence opened is closed: no value ended one early.
    expect((readme.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(readme).toContain(`**n1&lt;script&gt;alert\\(1\\)&lt;/script&gt;**`);
  });

  it('escapes each place its own way', () => {
    expect(markdownText('a_b *c* <d> & `e`')).toBe('a\\_b \\*c\\* &lt;d&gt; &amp; \\`e\\`');
    const t = '# {{v}}\n\nsee `{{v}}`\n\n| a | {{v}} |\n| b | `{{v}}` |\n\n```js\nx = "{{v}}";\n```\n{{raw}}';
    expect(fillMarkdown(t, { v: 'x|`<y>`\nz', raw: '**kept**' }, new Set(['raw']))).toBe(
      "# x\\|\\`&lt;y&gt;\\` z\n\nsee `x|'<y>' z`\n\n| a | x\\|\\`&lt;y&gt;\\` z |\n| b | `x\\|'<y>' z` |\n\n```js\nx = \"x|'<y>' z\";\n```\n**kept**",
    );
    expect(() => fillMarkdown('{{missing}}', {})).toThrow('{{missing}} has no value');
  });
});
