/**
 * The package's `serveHttp`: the HTTP front (its sessions, auth gate, rate limit, cluster wiring and
 * the SDK's Node adapter, ~25 modules) is imported on the first call, so a process serving stdio never
 * loads it.
 */
import type { McpServerBlueprint } from '../server/blueprint.js';
import type { HttpHandle, HttpServeOptions } from './options.js';

/** Streamable HTTP for both protocol eras, as `./serve-http.ts` describes; resolves once listening. */
export const serveHttp = async (blueprint: McpServerBlueprint, options: HttpServeOptions): Promise<HttpHandle> => {
  const { serveHttp: serveLoaded } = await import('./serve-http.js');
  return serveLoaded(blueprint, options);
};
