// One lint configuration for the whole monorepo. Layout is Prettier's job (.prettierrc.json): no rule
// here is about formatting, except max-len, for what Prettier does not break (strings, regexes, comments).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The server imports the SDK's wire types only (STYLE.md: dependencies point one way). */
const WIRE_TYPES_ONLY = { name: '@pingmon/sdk', message: 'The server imports wire types only: @pingmon/sdk/wire.' };
const KNEX_IN_DB = { name: 'knex', message: 'knex stays in server/src/db/.' };
const NO_DEFAULT_EXPORT = {
  selector: 'ExportDefaultDeclaration',
  message: 'Use a named export (default only where oclif requires it).',
};
/** A build of ours by path (`../../server/dist/…`, `pingmon/dist/…`); `ajv/dist/2020.js` is someone else's. `\x2F`
 *  is `/`, which a selector's /regex/ cannot hold. */
const OUR_BUILDS = String.raw`^((\.\.?\x2F)+(sdk|server|cli|bench)|@pingmon\x2F[^\x2F]+|pingmon)\x2Fdist(\x2F|$)`;

export default defineConfig(
  globalIgnores(['**/dist/', '**/node_modules/', '**/.tap/', '**/coverage/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Named exports only; oclif's commands and hooks are the exception it requires (below).
      'no-restricted-syntax': ['error', NO_DEFAULT_EXPORT],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Control characters in patterns are this project's business: terminal escapes, NUL, C0 codes in logs.
      'no-control-regex': 'off',
      // Tables are matched column by column: spaces as they appear on the screen read better than {2}.
      'no-regex-spaces': 'off',
      // `_`-prefixed names are placeholders a signature requires (hapi handlers, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier's printWidth, for what it leaves long: split strings with +, break comments, build a long
      // pattern from parts. Only a line with a URL in it may be longer.
      'max-len': ['error', { code: 120, tabWidth: 2, ignoreUrls: true }],
    },
  },
  {
    // The shipped packages also get the type-aware rules that catch a promise nobody waits for. Tests and
    // the bench are left out: an unawaited t.test() is tap's idiom, and typing them doubles the time.
    files: ['sdk/src/**/*.ts', 'server/src/**/*.ts', 'cli/src/**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The layers of STYLE.md. A later block replaces an earlier one's list for the same files, so each
  // list is complete.
  {
    files: ['sdk/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@pingmon/server', 'pingmon', 'pingmon/*'],
              message: 'The SDK depends on no other package of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['cli/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@pingmon/server',
              allowTypeImports: true,
              message: 'import() the server in the commands that run it: the other commands start without it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [WIRE_TYPES_ONLY, KNEX_IN_DB] }] },
  },
  {
    files: ['server/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [WIRE_TYPES_ONLY] }] },
  },
  {
    files: ['server/src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [WIRE_TYPES_ONLY, KNEX_IN_DB],
          patterns: [
            {
              group: ['@hapi/*', 'joi', '../db/*', '../routes/*', '../alerts/*'],
              message: 'domain/ is pure: no storage, HTTP or validation library.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests import our packages by their entry points or their declared internal entry (docs/testing.md),
    // never a build by path: a module moved then breaks one line of the internal entry, not the tests.
    files: ['test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: OUR_BUILDS,
              message: 'Import @pingmon/server/internal, pingmon/internal or the package, not a dist path.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        NO_DEFAULT_EXPORT,
        {
          selector: `ImportExpression[source.value=/${OUR_BUILDS}/]`,
          message: 'import() @pingmon/server/internal, pingmon/internal or the package, not a dist path.',
        },
      ],
    },
  },
  {
    files: ['cli/src/commands/**', 'cli/src/hooks/**', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The few plain JavaScript files are Node scripts.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
