import type * as ServerSdk from '@modelcontextprotocol/server';

export type { ServerSdk };

let loading: Promise<typeof ServerSdk> | undefined;

/**
 * The MCP SDK, loaded on first use rather than at import: its module evaluation, a noticeable part of start-up, then
 * overlaps the server's other start-up work (reading prompt files on a worker thread).
 */
export const loadServerSdk = (): Promise<typeof ServerSdk> => (loading ??= import('@modelcontextprotocol/server'));
