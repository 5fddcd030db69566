export { Router, UpstreamError } from './router.js';
export type { CallContext, Collision, DownstreamPeer, RoutedList, RouterEvents, RouterLogRecord, RouterOptions, RouterStatus } from './router.js';
export { Backend } from './backend.js';
export type { BackendState, BackendStatus } from './backend.js';
export { createMetaTools, metaToolNames, summarize } from './meta-tools.js';
export type { MetaTool } from './meta-tools.js';
export { createGatewayBlueprint } from './sdk/downstream.js';
export type { GatewayServerOptions } from './sdk/downstream.js';
export { killAllChildren } from './sdk/kill.js';
