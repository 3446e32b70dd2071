// Lint rules: typescript-eslint's recommended set, plus the few that catch real bugs in async code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // types/ is the declaration output of `npm pack` (prepack), not source.
  { ignores: ['node_modules/', 'search-trees/runs/', 'test/sandbox/hostile/', '.scratch/', 'dist/', 'types/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setInterval: 'readonly' } },
  },
  {
    // The viewer's page: classic browser scripts that share window.Automemo.
    files: ['viewer/page/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', fetch: 'readonly' } },
  },
);
