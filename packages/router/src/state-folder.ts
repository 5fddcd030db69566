import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's config folder, where the gateway keeps what it learns between runs (OAuth tokens under
 * `promptyard/oauth`, definition pins under `promptyard/pins`): `$XDG_CONFIG_HOME`, else
 * `%APPDATA%` on Windows, else `~/.config`.
 */
export const stateFolder = (env: Readonly<Record<string, string | undefined>> = process.env): string => {
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '') return xdg;
  if (process.platform === 'win32' && env['APPDATA'] !== undefined) return env['APPDATA'];
  return join(env['HOME'] ?? homedir(), '.config');
};
