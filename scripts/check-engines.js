#!/usr/bin/env node
// Checks that every installed package (package-lock.json) supports every Node version the
// project's `engines` admits, so `npm install` on a supported Node prints no EBADENGINE warning.
// Run by CI; after a dependency change, narrow `engines` or pick versions until it passes.
const path = require('node:path');
const semver = require('semver');

const root = path.join(__dirname, '..');
const range = require(path.join(root, 'package.json')).engines.node;
const { packages } = require(path.join(root, 'package-lock.json'));

const conflicts = Object.entries(packages)
  .filter(([location, info]) => location !== '' && info.engines && typeof info.engines.node === 'string')
  .filter(([, info]) => !semver.subset(range, info.engines.node))
  .map(([location, info]) => `  ${location.replace(/^.*node_modules\//, '')}@${info.version} requires node ${info.engines.node}`);

if (conflicts.length > 0) {
  console.error(`engines.node "${range}" admits Node versions these packages do not support:\n${conflicts.join('\n')}`);
  process.exit(1);
}
console.log(`engines.node "${range}": every one of ${Object.keys(packages).length - 1} locked packages supports it`);
