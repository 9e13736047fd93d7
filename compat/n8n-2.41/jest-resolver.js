// Resolves n8n's packages (n8n-core, n8n-workflow, @n8n/*) from this folder for every importer: the
// tests, the harness and the built package (whose peer n8n-workflow resolves to the host n8n's copy in a
// real n8n). Resolving from here, rather than mapping names to paths, keeps the packages' `exports` maps.
const path = require('node:path');

const N8N_PACKAGE = /^(?:n8n-core|n8n-workflow|@n8n\/[^/]+)(?:\/|$)/;

module.exports = (request, options) =>
	options.defaultResolver(
		request,
		N8N_PACKAGE.test(request) ? { ...options, basedir: __dirname } : options,
	);
