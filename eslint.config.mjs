import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

// typescript-eslint on every folder; on the published code (nodes/, credentials/, package.json) also the
// rules n8n applies to community nodes (@n8n/eslint-plugin-community-nodes, the rules of @n8n/node-cli's
// config, which cannot be installed from this registry).
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
	{
		// the package.json rules read the JSON through TypeScript's parser
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
);
