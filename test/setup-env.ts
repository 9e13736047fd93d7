import path from 'node:path';

// n8n-core writes its instance settings (encryption key) into N8N_USER_FOLDER on import;
// keep them inside the project instead of the user's home folder.
process.env.N8N_USER_FOLDER = path.resolve(__dirname, '..', '.n8n-test');
