const path = require('node:path');

// As test/setup-env.ts, in a folder of its own: n8n-core 2.41 keeps its instance settings apart from 2.8's.
process.env.N8N_USER_FOLDER = path.resolve(__dirname, '..', '..', '.n8n-test-gen2');
// n8n 2.41's engine logs every node error to the console (2.8's logger is silent outside n8n's CLI)
process.env.N8N_LOG_LEVEL ??= 'silent';
// test/harness/generation.test.ts checks that the run loaded the versions this manifest pins
process.env.CM_N8N_MANIFEST = path.join(__dirname, 'package.json');
