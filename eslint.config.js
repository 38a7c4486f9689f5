// Type-aware lint for every TypeScript file of the apps and libs (tests included), the rules of
// hooks for the console's React components, and the plain rules for the repository's own scripts.
// `npm test` runs it with --max-warnings 0.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'clients/typescript/src/schema.ts'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A file past 400 lines or a class with more than six dependencies is asking to be split
      // (STYLE.md); an exception says why in its disable comment (`-- reason`).
      'max-lines': ['error', { max: 400 }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MethodDefinition[kind='constructor'] > FunctionExpression[params.length>6]",
          message: 'More than six constructor dependencies: split the class, or say why in an eslint-disable comment.',
        },
      ],
    },
  },
  {
    // The console (React): hooks called unconditionally and with complete dependency lists.
    files: ['apps/console/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
