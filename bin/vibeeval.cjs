#!/usr/bin/env node
// The `vibeeval` command: runs the built CLI (npm install builds it into out/).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  console.error('vibeeval is not built yet: run `npm install` (or `npm run build`) in ' + join(__dirname, '..'));
  process.exit(1);
}
require(cli);
