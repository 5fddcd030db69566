/**
 * Podman for the container test, set up so that it runs here and leaves nothing behind: a storage
 * root of its own under a temporary folder (images, build layers and containers go there and are
 * deleted with it), and the settings rootful Podman needs on machines without systemd or with a low
 * open-files limit: `--runtime runc` when runc is installed, `--cgroup-manager=cgroupfs` when
 * systemd is not running, and a containers.conf (CONTAINERS_CONF) with `default_ulimits = []`, so a
 * container keeps the limits it is given instead of raising them (which fails where the hard limit
 * is lower). `unavailable()` says why Podman cannot be used here, for a skip with a reason.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Output } from '../../test-support/output.js';

interface Completed {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (never rejects: the caller reads `code`). */
export const run = (command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<Completed> =>
  new Promise((resolve) => {
    execFile(command, [...args], { env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
      resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() || (error?.message ?? '') });
    });
  });

/** Whether `name` is an executable on PATH. */
export const onPath = (name: string): boolean =>
  (process.env['PATH'] ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, name)));

/** The last lines of a long output, for an error message. */
export const tail = (text: string, lines = 40): string => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Why Podman (and the tools that make the base image) cannot be used on this machine, or undefined. */
export const unavailable = async (): Promise<string | undefined> => {
  if (process.platform !== 'linux') return `containers need Linux (this is ${process.platform})`;
  for (const tool of ['podman', 'mmdebstrap'])
    if (!onPath(tool)) return `${tool} is not installed (scripts/ensure-tools.sh installs it with apt-get)`;
  if (process.getuid?.() !== 0) return 'the test runs Podman rootful and mmdebstrap in root mode: run it as root';
  const info = await run('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.code !== 0) return `podman info failed: ${tail(info.stderr, 5)}`;
  return undefined;
};

export class Podman {
  readonly env: NodeJS.ProcessEnv;
  readonly global: readonly string[];
  readonly dir: string;
  private readonly followers = new Set<ChildProcess>();

  private constructor(dir: string, conf: string) {
    this.dir = dir;
    // TMPDIR: buildah keeps the Containerfile's cache mounts under it; here they go with the root.
    this.env = { ...process.env, CONTAINERS_CONF: conf, TMPDIR: join(dir, 'tmp') };
    this.global = [
      '--root',
      join(dir, 'storage'),
      '--runroot',
      join(dir, 'run'),
      ...(onPath('runc') ? ['--runtime', 'runc'] : []),
      ...(existsSync('/run/systemd/system') ? [] : ['--cgroup-manager=cgroupfs']),
    ];
  }

  /** A Podman whose storage and settings live in `dir` (created here, removed by `close`). */
  static async create(dir: string): Promise<Podman> {
    await mkdir(join(dir, 'storage'), { recursive: true });
    await mkdir(join(dir, 'tmp'), { recursive: true });
    const conf = join(dir, 'containers.conf');
    await writeFile(conf, '[containers]\ndefault_ulimits = []\n');
    return new Podman(dir, conf);
  }

  run(args: readonly string[]): Promise<Completed> {
    return run('podman', [...this.global, ...args], this.env);
  }

  /** Runs podman and returns its stdout, or throws with its stderr. */
  async ok(args: readonly string[]): Promise<string> {
    const result = await this.run(args);
    if (result.code !== 0) throw new Error(`podman ${args.join(' ')} failed (${result.code}):\n${tail(result.stderr)}`);
    return result.stdout.trim();
  }

  /** `podman logs -f <name>` collected as it comes, to wait for a line. */
  follow(name: string): Output {
    const output = new Output();
    const child = spawn('podman', [...this.global, 'logs', '-f', name], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.followers.add(child);
    child.once('exit', () => this.followers.delete(child));
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    return output;
  }

  /**
   * Removes what the test made: the named containers (with their anonymous volumes) and networks,
   * then the storage root with every image and build layer in it.
   */
  async close(containers: readonly string[], networks: readonly string[]): Promise<void> {
    for (const child of this.followers) child.kill();
    if (containers.length > 0) await this.run(['rm', '--force', '--volumes', '--ignore', '--time', '0', ...containers]);
    for (const network of networks) await this.run(['network', 'rm', '--force', network]);
    // The storage driver keeps its folder mounted on itself (a private bind): unmount what is left
    // under the root, deepest first, before deleting it.
    const mounts = (await readFile('/proc/self/mountinfo', 'utf8'))
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '')
      .filter((point) => point.startsWith(`${this.dir}/`))
      .sort((a, b) => b.length - a.length);
    for (const point of mounts) await run('umount', ['--lazy', point]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
