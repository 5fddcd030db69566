/** The environment a stdio backend starts with. */

/**
 * Carries the gateways (and their configs) above a child, so a gateway started again by its own
 * config notices (see gateway-chain.ts). It survives the `PROMPTYARD_*` filter on purpose.
 */
export const GATEWAY_CHAIN_VARIABLE = 'PROMPTYARD_GATEWAY_CHAIN';

/** `inherit_env = false`: enough to find programs and a home (the SDK's `getDefaultEnvironment()` list). */
const minimalKeys =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'];

/** The gateway's own settings and secrets (auth token, config path …); names compare case-blind, as on Windows. */
const isPromptyardVariable = (name: string): boolean => /^PROMPTYARD_/i.test(name) && name.toUpperCase() !== GATEWAY_CHAIN_VARIABLE;

export interface ChildEnvironmentOptions {
  /** The gateway's environment (`process.env`). */
  readonly parent: Readonly<Record<string, string | undefined>>;
  /** true: all of `parent` but `PROMPTYARD_*`; false: the minimal set. */
  readonly inherit: boolean;
  /** The server's `env`, which wins over inherited values. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A backend's environment: the gateway's (or the minimal set) without Promptyard's own variables,
 * then the server's `env`, then the gateway chain, which no entry can drop. Values starting with
 * `()` are exported shell functions, skipped as the SDK does (a shellshock-style injection path).
 */
export const childEnvironment = ({ parent, inherit, env }: ChildEnvironmentOptions): Record<string, string> => {
  const result: Record<string, string> = {};
  const names = inherit ? Object.keys(parent) : minimalKeys;
  for (const name of names) {
    const value = parent[name];
    if (value === undefined || value.startsWith('()') || isPromptyardVariable(name)) continue;
    result[name] = value;
  }
  Object.assign(result, env);
  const chain = parent[GATEWAY_CHAIN_VARIABLE];
  if (chain !== undefined) result[GATEWAY_CHAIN_VARIABLE] = chain;
  return result;
};
