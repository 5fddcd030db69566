#!/usr/bin/env node
// Installs the MCP conformance suite, pinned, into .tmp/conformance (git-ignored), for the gateway's
// conformance test; it needs Node 22 or newer, which, when the running Node is older, comes from
// scripts/ensure-node.mjs. Idempotent: a no-op when the pinned versions are there. Prints
// {"node": …, "cli": …} on stdout.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, npmInstallInto } from './ensure-node.mjs';

const suite = { name: '@modelcontextprotocol/conformance', version: '0.2.0-alpha.12' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = join(root, '.tmp', 'conformance');
const modules = join(prefix, 'node_modules');
const installedVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

if (installedVersion(suite.name) !== suite.version) {
  mkdirSync(prefix, { recursive: true });
  process.stderr.write(`ensure-conformance: installing ${suite.name}@${suite.version} into ${prefix}\n`);
  npmInstallInto(prefix, `${suite.name}@${suite.version}`);
}
// A Node that is new enough already does; otherwise the pinned Node 22.
const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : ensureNode(22);
const cli = join(modules, suite.name, 'dist', 'index.js');
if (!existsSync(cli)) throw new Error(`ensure-conformance: ${cli} is missing after the install; remove ${prefix} and run again.`);
// stdout carries only this line; ensureNode writes its progress to stderr.
process.stdout.write(`${JSON.stringify({ node, cli })}\n`);
