// Lint rules: typescript-eslint's recommended set, the few that catch real bugs in async code, and the layers.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * automemo's layers, lowest first. A folder imports its own files and the layers below it: never a layer above it,
 * nor one beside it (envs and run-store know nothing of each other, nor do viewer and export). foundation/ is under
 * all. Everything outside the layers (tests, benchmarks, scripts, examples, the entry files) may import anything,
 * and no layer imports it.
 */
export const LAYERS = [
  ['foundation'],
  ['memo-programs'],
  ['sandbox'],
  ['engine'],
  ['envs', 'run-store'],
  ['viewer', 'export'],
  ['api'],
  ['cli'],
];

const belowApi = LAYERS.slice(0, LAYERS.findIndex((group) => group.includes('api'))).flat();

/**
 * Layers that reach the ones below only through one of them (and foundation/): the CLI is a thin layer over the
 * library, so what it needs from the engine, the viewer or the exporter, api/ offers a library user as well.
 */
export const THROUGH = { cli: ['api', 'foundation'] };

const layerPolicies = LAYERS.flatMap((group, i) =>
  group.flatMap((folder) => {
    const below = LAYERS.slice(0, i).flat();
    const through = THROUGH[folder];
    const allowed = { from: { element: { type: folder } }, allow: { to: { element: { types: { anyOf: [folder, ...(through ?? below)] } } } } };
    if (!through) return [allowed];
    const bypassed = below.filter((f) => !through.includes(f));
    return [
      allowed,
      {
        from: { element: { type: folder } },
        disallow: { to: { element: { types: { anyOf: bypassed } } } },
        message: `layers point down (THROUGH in eslint.config.js): ${folder}/ reaches the layers below only through ${through.map((f) => `${f}/`).join(' and ')}, and this import reaches {{to.type}}`,
      },
    ];
  }),
);

export default tseslint.config(
  // types/ is the declaration output of `npm pack` (prepack), not source.
  { ignores: ['node_modules/', 'search-trees/runs/', 'test/sandbox/hostile/', '.scratch/', 'dist/', 'types/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // No rule here reads types, so the parser need not keep its maps between TypeScript's nodes and ESTree's (two
  // maps of every node of every file: a tenth of the pass's CPU).
  { languageOptions: { parserOptions: { preserveNodeMaps: false } } },
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
  {
    // The package's own name is api/ (tsconfig's paths and vitest alias it), so a layer below api/ must not reach it
    // by name either.
    files: belowApi.map((folder) => `${folder}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'automemo', message: "'automemo' is api/: layers point down (LAYERS in eslint.config.js)" }],
        },
      ],
    },
  },
  {
    // What the CLI prints goes through its one writer, which escapes control characters from outside.
    files: ['cli/**'],
    ignores: ['cli/terminal.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.object.name='process'][object.property.name=/^std(out|err)$/][property.name='write']",
          message: 'print through cli/terminal.ts (toStdout, toStderr), which escapes control characters',
        },
        { selector: "MemberExpression[object.name='console']", message: 'print through cli/terminal.ts, which escapes control characters' },
      ],
    },
  },
  {
    // The layers: every import, re-export, dynamic import() and import('…') type between layers points down. Run
    // on the layers' files only: a file outside them may import anything, so the rule never reports there.
    files: LAYERS.flat().map((folder) => `${folder}/**`),
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        ...LAYERS.flat().map((folder) => ({ type: folder, pattern: folder, partialMatch: false })),
        { type: 'files outside the layers', pattern: '**', partialMatch: false },
      ],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
      'boundaries/additional-dependency-nodes': [
        { name: 'import-type', selector: 'TSImportType > Literal.source', kind: 'type' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            'layers point down (LAYERS in eslint.config.js): {{from.type}}/ imports only its own files and the layers below it, and this import reaches {{to.type}}',
          policies: [
            ...layerPolicies,
            { from: { element: { type: 'files outside the layers' } }, allow: { to: { element: { type: '*' } } } },
          ],
        },
      ],
    },
  },
);
