import type { McpServerBlueprint } from './server.js';

export interface StdioHandle {
  close(): Promise<void>;
}

/** Serves one connection over stdin/stdout, in whichever protocol era the client opens with. */
export const serveStdio = async (blueprint: McpServerBlueprint): Promise<StdioHandle> => {
  const { serveStdio: sdkServeStdio } = await import('@modelcontextprotocol/server/stdio');
  const handle = sdkServeStdio(blueprint.factory(true), {
    onerror: (error) => blueprint.logger.warn('stdio transport error', { reason: error.message }),
  });
  return { close: () => handle.close() };
};
