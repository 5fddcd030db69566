import type { AuditTrail, Cluster, Logger, Metrics } from '@promptyard/core';
import type { McpServerBlueprint, McpTracing } from '@promptyard/mcp';
import { joinCluster } from './join-cluster.js';
import type { ClusterSettings } from './join-cluster.js';
import { serve } from './serve.js';
import type { Served, ServeOptions } from './serve.js';
import { startTelemetry } from './start-telemetry.js';
import type { HostTelemetrySettings } from './start-telemetry.js';

export interface HostOptions {
  /** 'server' or 'gateway': what the warnings call the program. */
  readonly noun: string;
  readonly logger: Logger;
  /** `[transport] type = "http"`: metrics on the endpoint and a cluster need it. */
  readonly http: boolean;
  readonly telemetry: HostTelemetrySettings;
  /** The level of the start-up notes (`traces to …`). */
  readonly noteLevel: 'info' | 'notice';
  readonly cluster: ClusterSettings;
  /** `[audit] file`: one JSON line per call decided, to this file (`-`: stderr); absent: no audit trail. */
  readonly audit?: { readonly file: string } | undefined;
}

/** What a binary's MCP server runs in: telemetry and cluster, then the transport it is served on. */
export interface Host {
  readonly metrics: Metrics | undefined;
  readonly tracing: McpTracing | undefined;
  readonly cluster: Cluster | undefined;
  /** The audit trail (`[audit]`), counted in the metrics; absent without one. */
  readonly trail: AuditTrail | undefined;
  /** Serves the blueprint (made with the host's metrics, tracing and cluster); `close` closes it. */
  serve(blueprint: McpServerBlueprint, options: ServeOptions): Promise<Served>;
  /**
   * Closes in order: the binary's `before` (its watchers and sources), the transport, the cluster,
   * the metrics' listener, the binary's `after` (what requests used: backends, providers), and the
   * traces last, so that they hold all of it.
   */
  close(steps: { readonly before?: () => Promise<unknown>; readonly after?: () => Promise<unknown> }): Promise<void>;
}

/** Starts telemetry (metrics, traces) and joins the cluster: what the blueprint needs before it is made. */
export const startHost = async (options: HostOptions): Promise<Host> => {
  const { logger, http, noun } = options;
  const telemetry = await startTelemetry(options.telemetry, { http, logger, noteLevel: options.noteLevel });
  const cluster = await joinCluster(options.cluster, { http, noun, logger });
  const { audit } = options;
  // The file opens before anything is served: one that cannot be written to stops the start, with why.
  const trail =
    audit === undefined
      ? undefined
      : await (
          await import('@promptyard/telemetry')
        ).openAuditTrail({
          ...(audit.file === '-' ? {} : { file: audit.file }),
          metrics: telemetry.metrics,
          logger,
        });
  let served: Served | undefined;
  return {
    metrics: telemetry.metrics,
    tracing: telemetry.tracing,
    cluster,
    trail,
    serve: async (blueprint, serveOptions) => {
      served = await serve(blueprint, serveOptions, { noun, logger, telemetry, cluster });
      return served;
    },
    close: async ({ before, after }) => {
      await before?.();
      await served?.close().catch(() => {});
      await cluster?.close();
      await telemetry.closeMetrics();
      await after?.();
      await trail?.close();
      await telemetry.shutdownTracing();
    },
  };
};
