// Type-checked lint over the whole project (src, test, bench): `npm run check` and CI run it with zero errors.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/generated/**', 'test/generated/**', 'coverage/**', '**/*.cjs', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'all', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'all', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      // Prettier wraps code at 150 columns but leaves long strings, templates and comments whole.
      // Core max-len is deprecated (formatting rules moved to @stylistic) yet kept until ESLint 11.
      'max-len': ['error', { code: 150, ignoreUrls: true }],
      // Interface implementations may be async without awaiting (the in-memory cache, test doubles).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests feed hostile, untyped input on purpose and read untyped JSON bodies (light-my-request's
    // json() is any); the assertions check the shapes. bench/ reads autocannon's untyped results.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // jest reads handlers off prototypes (route metadata) without calling them.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
