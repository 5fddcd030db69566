import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTool } from './output.js';
import type { Output } from './output.js';
import { freePort } from './prometheus.js';

/** The balancer config users deploy; the cluster tests run exactly this file, rendered. */
export const nginxConfigPath = fileURLToPath(new URL('../deploy/nginx/promptyard.conf', import.meta.url));

/**
 * deploy/nginx/promptyard.conf with its replicas and listen port replaced, as its header describes:
 * the `server 127.0.0.1:<port>` lines of `upstream promptyard` become one line per port (keeping the
 * first line's parameters) and `listen 8080` listens on `127.0.0.1:<listen>`.
 */
export const renderNginxConfig = (source: string, upstreamPorts: readonly number[], listen: number): string => {
  const upstream = /(upstream promptyard \{[^}]*?)((?:\n[ \t]*server 127\.0\.0\.1:\d+([^;\n]*);)+)/.exec(source);
  if (upstream === null)
    throw new Error(`${nginxConfigPath}: no "server 127.0.0.1:<port> …;" lines in "upstream promptyard { … }" to render`);
  const indent = /\n([ \t]*)server/.exec(upstream[2] as string)?.[1] ?? '    ';
  const servers = upstreamPorts.map((port) => `\n${indent}server 127.0.0.1:${port}${upstream[3] as string};`).join('');
  const rendered = source.replace(upstream[0], `${upstream[1] as string}${servers}`);
  if (!/\n[ \t]*listen 8080;/.test(rendered)) throw new Error(`${nginxConfigPath}: no "listen 8080;" line to render`);
  return rendered.replace(/\n([ \t]*)listen 8080;/, `\n$1listen 127.0.0.1:${listen};`);
};

export interface Nginx {
  readonly pid: number;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** nginx's error log (stderr) so far. */
  readonly log: Output;
  /**
   * The requests logged so far (nginx logs one when it ends: a GET stream once it closes), as
   * `<epoch seconds> <method> <status> <replica address> last-event-id="<header>"` lines.
   */
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

const nginxBinary = (): string => (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

/**
 * nginx in the foreground as the current user, its prefix, pid file, temp folders and access log in
 * `dir`, serving the `http { … }` contents in `dir`/`included` on 127.0.0.1:`port`.
 */
const runNginx = async (dir: string, port: number, included: string): Promise<Nginx> => {
  const temp = (name: string): string => `${name}_temp_path ${join(dir, name)};`;
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      'events { worker_connections 1024; }',
      'http {',
      `  log_format cluster '$msec $request_method $status $upstream_addr last-event-id="$http_last_event_id"';`,
      `  access_log ${join(dir, 'access.log')} cluster;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
      `  include ${join(dir, included)};`,
      '}',
      '',
    ].join('\n'),
  );
  const { child, output: log } = await startTool(
    'nginx',
    nginxBinary(),
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr notice;`],
    /start worker process \d+/,
  );
  const pid = child.pid as number;
  return {
    pid,
    port,
    origin: `http://127.0.0.1:${port}`,
    log,
    accessLog: () => readFile(join(dir, 'access.log'), 'utf8').catch(() => ''),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // The master takes its workers with it on SIGTERM; SIGKILL would leave them behind.
        process.kill(pid, 'SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/** A fresh prefix folder for nginx; as root, nginx's workers run as `nobody`: they must reach it. */
const nginxPrefix = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-nginx-'));
  await chmod(dir, 0o755);
  return dir;
};

/**
 * nginx in the foreground as the current user, its prefix, pid file, temp folders and access log in a
 * temporary folder, serving deploy/nginx/promptyard.conf rendered for `upstreamPorts`.
 */
export const startNginx = async (upstreamPorts: readonly number[]): Promise<Nginx> => {
  const dir = await nginxPrefix();
  const port = await freePort();
  await writeFile(join(dir, 'promptyard.conf'), renderNginxConfig(await readFile(nginxConfigPath, 'utf8'), upstreamPorts, port));
  return runNginx(dir, port, 'promptyard.conf');
};

/**
 * nginx as `startNginx` runs it, serving the `server { … }` block `server` returns for a free port
 * and its prefix folder (where the block may keep files of its own: sockets, password files).
 */
export const startNginxServer = async (server: (listen: string, dir: string) => string | Promise<string>): Promise<Nginx> => {
  const dir = await nginxPrefix();
  const port = await freePort();
  await writeFile(join(dir, 'server.conf'), await server(`127.0.0.1:${port}`, dir));
  return runNginx(dir, port, 'server.conf');
};
