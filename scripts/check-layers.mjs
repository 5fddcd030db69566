#!/usr/bin/env node
// Checks what ESLint cannot see: package.json dependencies follow the layering (core and search-index ←
// domain packages, mcp, auth and telemetry ← router ← apps; core, mcp, telemetry and cluster ← host ← apps), only packages/mcp and packages/router depend on the MCP SDK
// at run time, only packages/telemetry on the metrics library, only packages/cluster on the Redis client,
// every source file name is kebab-case, and
// every package has the exports a publishable package needs and the root's engines.node.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const problems = [];
const workspace = (folder) =>
  readdirSync(join(root, folder))
    .map((name) => join(root, folder, name))
    .filter((path) => statSync(path).isDirectory() && statSync(join(path, 'package.json'), { throwIfNoEntry: false }));

const packages = workspace('packages');
/** Every package supports the Node versions the root package.json (and the README) names. */
const supportedNode = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
/** The router builds on mcp (serving) and the search index; the gateway's config file (and its [auth] section) is apps/gateway's. */
const routerMayUse = ['@promptyard/core', '@promptyard/mcp', '@promptyard/search-index'];
/** The host composes what both binaries do around their MCP server: serving, telemetry and the cluster. */
const hostMayUse = ['@promptyard/cluster', '@promptyard/core', '@promptyard/mcp', '@promptyard/telemetry'];
/** The ground floor: packages that depend on no Promptyard package, and that any package may build on. */
const groundFloor = ['@promptyard/core', '@promptyard/search-index'];
/** Every other package builds on the ground floor alone. */
const mayUse = { router: routerMayUse, host: hostMayUse };
const sdkSeams = ['mcp', 'router'];
/** Metrics are reported through core's contract; the library that exposes them is telemetry's alone. */
const metricsLibraries = ['prom-client'];
const metricsHome = 'telemetry';
/** Shared state goes through core's Cluster contract; the Redis client is cluster's alone. */
const redisClients = ['ioredis'];
const redisHome = 'cluster';
const apps = workspace('apps');
for (const dir of [...packages, ...apps]) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const where = relative(root, join(dir, 'package.json'));
  const isApp = apps.includes(dir);
  const folder = dir.split('/').pop();
  if (manifest.name !== `@promptyard/${folder}`)
    problems.push(`${where}: name must be @promptyard/${folder} (folder name = unscoped package name)`);
  const promptyard = (deps) => Object.keys(deps ?? {}).filter((name) => name.startsWith('@promptyard/') && name !== manifest.name);
  // The layering is about what a package needs at run time; its tests may compose real siblings
  // (a provider's contract test renders with the real template engines). The ground floor stays alone in both.
  const runtime = promptyard({ ...manifest.dependencies, ...manifest.peerDependencies });
  const allowed = mayUse[folder] ?? groundFloor;
  for (const name of [...runtime, ...promptyard(manifest.devDependencies)]) {
    if (!isApp && groundFloor.includes(manifest.name)) problems.push(`${where}: ${folder} must not depend on ${name}`);
    else if (!isApp && runtime.includes(name) && !allowed.includes(name))
      problems.push(`${where}: ${folder} may depend only on ${allowed.join(', ')}, not ${name}`);
    if (apps.some((app) => JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).name === name))
      problems.push(`${where}: nothing depends on an app (${name})`);
  }
  const sdkAtRunTime = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@modelcontextprotocol/'));
  if (sdkAtRunTime.length > 0 && !sdkSeams.includes(folder))
    problems.push(`${where}: only ${sdkSeams.join(' and ')} depend on the MCP SDK at run time, not ${folder} (${sdkAtRunTime.join(', ')})`);
  const metricsAtRunTime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) =>
    metricsLibraries.includes(name),
  );
  if (metricsAtRunTime.length > 0 && folder !== metricsHome)
    problems.push(`${where}: only ${metricsHome} depends on ${metricsAtRunTime.join(', ')}; report through core's Metrics contract`);
  const redisAtRunTime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) =>
    redisClients.includes(name),
  );
  if (redisAtRunTime.length > 0 && folder !== redisHome)
    problems.push(`${where}: only ${redisHome} depends on ${redisAtRunTime.join(', ')}; share state through core's Cluster contract`);
  if (manifest.type !== 'module') problems.push(`${where}: "type" must be "module"`);
  if (!manifest.exports?.['./package.json']) problems.push(`${where}: exports must include "./package.json"`);
  if (manifest.main) problems.push(`${where}: use "exports", not "main"`);
  if (!isApp && manifest.sideEffects !== false) problems.push(`${where}: "sideEffects" must be false`);
  if (!manifest.engines?.node) problems.push(`${where}: "engines.node" is required`);
  else if (manifest.engines.node !== supportedNode)
    problems.push(
      `${where}: "engines.node" is "${manifest.engines.node}", not the root package.json's "${supportedNode}" (the README's supported versions)`,
    );
}

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)*$/;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !kebab.test(entry.name))
      problems.push(`${relative(root, path)}: file names are kebab-case`);
  }
};
for (const dir of [...packages, ...apps]) walk(dir);

if (problems.length > 0) {
  console.error(`Layering and package checks failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`layers ok: ${packages.length} packages, ${apps.length} apps`);
