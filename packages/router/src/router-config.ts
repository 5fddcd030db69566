import type { BackendConfig } from './config-backend.js';
import type { ProfileConfig } from './surface/surface-types.js';

/**
 * What routing reads of a gateway's configuration: its name, how names are joined, the servers and
 * how long to wait for them. The file it comes from (gateway.toml, a client's JSON) is the app's.
 */
export interface RouterConfig {
  /** Server name reported to clients. */
  readonly name: string;
  /** Between a server prefix and a name (`github_create_issue`). */
  readonly separator: string;
  /** List only the meta tools in tools/list; every tool stays callable by name. */
  readonly lazy: boolean;
  /** Serve the catalog, describe, search and call tools alongside the backends' tools. */
  readonly metaTools: boolean;
  /** How long after start lists wait for servers still on their first connection attempt; 0: never. */
  readonly startupWaitMs: number;
  readonly timeouts: { readonly connectMs: number; readonly requestMs: number; readonly toolMs: number };
  /**
   * `[limits]`: `maxMessageBytes` bounds every message read from a backend (stdio line, HTTP body, SSE
   * event); `maxDefinitions` each list of one server (a server's own `maxDefinitions` wins).
   */
  readonly limits: { readonly maxMessageBytes: number; readonly maxDefinitions: number };
  /** `maxRestarts` 0 = unlimited. */
  readonly restart: { readonly initialMs: number; readonly maxMs: number; readonly maxRestarts: number };
  /** In config order, disabled ones included. */
  readonly servers: readonly BackendConfig[];
  /** `[profiles.<name>]`: curated surfaces besides the default one (everything). */
  readonly profiles: readonly ProfileConfig[];
}
