/** The JSON Schema of `gateway.toml`, made from the schema its reader checks (`promptyard-gateway schema`; `schema/` holds a copy). */
import { configJsonSchema } from '@promptyard/core';
import type { JsonSchema } from '@promptyard/core';
import { gatewayConfigSchema } from './schema.js';
import { PROFILE_NAME, SERVER_ID } from './values.js';

export const gatewayJsonSchema = (): JsonSchema =>
  configJsonSchema(gatewayConfigSchema, {
    title: 'gateway.toml',
    description:
      'Configuration of promptyard-gateway: [servers.<id>] tables, one per MCP server, and the gateway settings. PROMPTYARD_<SECTION>_<KEY> environment variables override the settings.',
    names: { id: SERVER_ID.source, name: PROFILE_NAME.source },
    // A server is launched (command) or reached (url), never both.
    refine: { 'servers.<id>': { oneOf: [{ required: ['command'] }, { required: ['url'] }] } },
  });

/** The schema as the file and the command write it. */
export const gatewayJsonSchemaText = (): string => `${JSON.stringify(gatewayJsonSchema(), null, 2)}\n`;
