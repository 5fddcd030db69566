/**
 * Where a client keeps its config file on each operating system. A layout is resolved from the
 * folders a client builds on (home, %APPDATA%, $XDG_CONFIG_HOME, ~/Library/Application Support),
 * read from the environment given, so tests can point a layout at a temporary home. `--platform`
 * picks the layout only: the path is joined with this machine's separator, so a test of the
 * Windows layout on Linux writes under the temporary %APPDATA% it set.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const platforms = ['linux', 'darwin', 'win32'] as const;
export type Platform = (typeof platforms)[number];

export type Environment = Readonly<Record<string, string | undefined>>;

/** The base folders a layout is made of. */
export interface Bases {
  readonly platform: Platform;
  /** $HOME (%USERPROFILE% on Windows). */
  readonly home: string;
  /** Where applications keep per-user settings: $XDG_CONFIG_HOME or ~/.config, %APPDATA%, ~/Library/Application Support. */
  readonly appData: string;
  /** $XDG_CONFIG_HOME or ~/.config on Linux and macOS (tools that follow XDG there too); %APPDATA% on Windows. */
  readonly xdgConfig: string;
  readonly env: Environment;
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

export const resolveBases = (platform: Platform, env: Environment): Bases => {
  const home = nonEmpty(platform === 'win32' ? (env['USERPROFILE'] ?? env['HOME']) : env['HOME']) ?? homedir();
  const xdg = nonEmpty(env['XDG_CONFIG_HOME']) ?? join(home, '.config');
  const roaming = nonEmpty(env['APPDATA']) ?? join(home, 'AppData', 'Roaming');
  if (platform === 'win32') return { platform, home, appData: roaming, xdgConfig: roaming, env };
  if (platform === 'darwin') return { platform, home, appData: join(home, 'Library', 'Application Support'), xdgConfig: xdg, env };
  return { platform, home, appData: xdg, xdgConfig: xdg, env };
};

export const isPlatform = (value: string): value is Platform => (platforms as readonly string[]).includes(value);

/** This machine's layout; any other system is treated as Linux (the XDG layout). */
export const currentPlatform = (): Platform => (isPlatform(process.platform) ? process.platform : 'linux');
