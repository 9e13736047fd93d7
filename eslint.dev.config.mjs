import tseslint from 'typescript-eslint';

// The folders n8n does not load (sandbox/, test/, scripts/, bench/): typescript-eslint's recommended rules.
// The published code (nodes/, credentials/, package.json) is linted by n8n's own default config
// (eslint.config.mjs, unchanged as strict mode requires) through `n8n-node lint`; both run in `npm run lint`.
export default tseslint.config(
	{
		ignores: ['dist/**', 'node_modules/**', '.n8n-test/**', '.cache/**', '.tmp/**', 'coverage/**'],
	},
	{
		files: ['**/*.ts', '**/*.mjs'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
	},
);
