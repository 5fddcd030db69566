#!/usr/bin/env node
// Installs the MCP conformance suite, pinned, and the Node 22 it needs (from the registry's
// node-<platform>-<arch> package) into .tmp/conformance (git-ignored), for the gateway's conformance
// test. Idempotent: a no-op when both pinned versions are there. Prints {"node": …, "cli": …} on stdout.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const suite = { name: '@modelcontextprotocol/conformance', version: '0.2.0-alpha.12' };
const node = { name: `node-${process.platform}-${process.arch}`, version: '22.23.3' };

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

// A Node that is new enough already does; otherwise the pinned one comes with the suite.
const ownNodeWillDo = Number(process.versions.node.split('.')[0]) >= 22;
const wanted = ownNodeWillDo ? [suite] : [suite, node];
const missing = wanted.filter((item) => installedVersion(item.name) !== item.version);
if (missing.length > 0) {
  mkdirSync(prefix, { recursive: true });
  process.stderr.write(
    `ensure-conformance: installing ${missing.map((item) => `${item.name}@${item.version}`).join(' ')} into ${prefix}\n`,
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...wanted.map((item) => `${item.name}@${item.version}`),
    ],
    {
      // npm's own output goes to stderr: stdout carries only the JSON line below.
      stdio: ['ignore', process.stderr, 'inherit'],
    },
  );
}
const nodePath = ownNodeWillDo ? process.execPath : join(modules, node.name, 'bin', 'node');
const cli = join(modules, suite.name, 'dist', 'index.js');
for (const path of [nodePath, cli])
  if (!existsSync(path)) throw new Error(`ensure-conformance: ${path} is missing after the install; remove ${prefix} and run again.`);
process.stdout.write(`${JSON.stringify({ node: nodePath, cli })}\n`);
