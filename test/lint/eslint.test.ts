// `npm run lint`'s ESLint pass over the whole project, as a test: npm test runs it beside the other test files
// instead of before them (a quarter of a minute of one core). A finding fails with its file:line and rule.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';

describe('the project under ESLint', () => {
  it('has no finding: the layers, the rules of eslint.config.js', async () => {
    const results = await new ESLint({ cwd: repoRoot }).lintFiles(['.']);
    const findings = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(repoRoot.length + 1)}:${m.line}:${m.column} ${m.message} (${m.ruleId ?? 'parse'})`));
    expect(findings).toEqual([]);
    expect(results.length).toBeGreaterThan(300);
  }, 180_000);
});
