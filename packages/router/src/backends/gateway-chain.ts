import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { GATEWAY_CHAIN_VARIABLE } from '../sdk/child-env.js';

/**
 * The loop guard. A config that lists the gateway itself (easy to get by pointing the gateway at the
 * Claude Desktop file it is registered in) would start gateways without end. Each gateway appends
 * `<pid>:<config identity>` to `PROMPTYARD_GATEWAY_CHAIN`, which its children inherit through any
 * wrapper (`npx`, a shell script); a gateway that finds its own config up the chain, or too many
 * gateways above it, refuses to start before it starts any server.
 */

/** Gateways allowed above one that starts: a deliberate chain of gateways stays short. */
export const MAX_GATEWAY_DEPTH = 4;

/** sysexits' EX_CONFIG: how a refusing gateway exits, besides its one line on stderr. */
export const GATEWAY_LOOP_EXIT_CODE = 78;

/** Starts the refusing gateway's stderr line; the parent recognises the loop by it. */
export const GATEWAY_LOOP_MARK = 'promptyard-gateway: gateway loop:';

/** A config's identity: a short hash of its real path, so symlinks and relative paths agree and no path leaks. */
export const configIdentity = (file: string): string => {
  let path = resolve(file);
  try {
    path = realpathSync(path);
  } catch {
    // A missing file fails later with its own message; the resolved path still identifies it.
  }
  return createHash('sha256').update(path).digest('hex').slice(0, 16);
};

export type GatewayChainVerdict =
  /** `chain`: the value this gateway's children get. */
  | { readonly refused: false; readonly chain: string }
  /** `line`: the whole stderr line to print before exiting with {@link GATEWAY_LOOP_EXIT_CODE}. */
  | { readonly refused: true; readonly line: string };

/** Decides whether a gateway serving `file` may start, given the chain it inherited. */
export const checkGatewayChain = (file: string, env: Readonly<Record<string, string | undefined>>, pid: number): GatewayChainVerdict => {
  const above = (env[GATEWAY_CHAIN_VARIABLE] ?? '').split(',').filter((entry) => entry !== '');
  const identity = configIdentity(file);
  const same = above.find((entry) => entry.slice(entry.lastIndexOf(':') + 1) === identity);
  if (same !== undefined) {
    const parent = same.slice(0, same.lastIndexOf(':'));
    return {
      refused: true,
      line: `${GATEWAY_LOOP_MARK} not starting: the gateway with pid ${parent} above this one already serves ${file}, so an entry starts the gateway again; remove the server entry that runs promptyard-gateway (directly or through a script) from ${file}`,
    };
  }
  if (above.length >= MAX_GATEWAY_DEPTH) {
    return {
      refused: true,
      line: `${GATEWAY_LOOP_MARK} not starting: ${above.length} gateways already run above this one (at most ${MAX_GATEWAY_DEPTH}); the configs that start gateways lead round in a loop or too deep — remove one of those entries`,
    };
  }
  return { refused: false, chain: [...above, `${pid}:${identity}`].join(',') };
};
