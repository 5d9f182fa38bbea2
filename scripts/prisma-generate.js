#!/usr/bin/env node
// Runs `prisma generate` on any machine. The Prisma 7 CLI insists on downloading its native schema
// engine before generating, although generate never uses it; on a machine that reaches only the
// npm registry that download fails. Pointing PRISMA_SCHEMA_ENGINE_BINARY at an existing file
// (this script) skips the download. The variable is set only for this child process, so `prisma
// migrate` on a machine with internet still gets the real engine.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = __filename;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
// Generators named by their command (prisma-kysely) are found on PATH, as under `npm run`.
env.PATH = [path.join(__dirname, '..', 'node_modules', '.bin'), env.PATH].filter(Boolean).join(path.delimiter);

const cli = require.resolve('prisma/build/index.js', { paths: [path.join(__dirname, '..')] });
const result = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
