import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-test/**', '.cache/**', 'nodes/**', 'credentials/**'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.mjs'],
		languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
);
