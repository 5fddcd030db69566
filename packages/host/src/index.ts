export type { ClusterSettings } from './join-cluster.js';
export { answerHelpOrVersion, readPackageVersion, runCli } from './run-cli.js';
export type { RunCliOptions } from './run-cli.js';
export type { HttpEndpoint, Served, ServeOptions } from './serve.js';
export { startHost } from './start-host.js';
export { watchConfigFile } from './watch-config.js';
export type { Host, HostOptions } from './start-host.js';
export type { HostTelemetrySettings } from './start-telemetry.js';
