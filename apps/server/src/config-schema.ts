/** The JSON Schema of `promptyard.toml`, made from the schema the loader checks (`promptyard-server schema`; `schema/` holds a copy). */
import { configJsonSchema } from '@promptyard/core';
import type { JsonSchema } from '@promptyard/core';
import { configSchema } from './config.js';

export const serverJsonSchema = (): JsonSchema =>
  configJsonSchema(configSchema, {
    title: 'promptyard.toml',
    description: 'Configuration of promptyard-server. PROMPTYARD_<SECTION>_<KEY> environment variables override these keys.',
  });

/** The schema as the file and the command write it. */
export const serverJsonSchemaText = (): string => `${JSON.stringify(serverJsonSchema(), null, 2)}\n`;
