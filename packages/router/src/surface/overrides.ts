/**
 * Overrides: what the gateway changes of a server's tools and prompts before serving them — a new
 * name (routed back to the original), title, description, annotations, and arguments given a fixed
 * value, which leave the input schema and are injected into every call.
 */
import type { Prompt, Tool } from '../sdk/upstream-types.js';
import type { Overrides, PromptOverride, ToolOverride } from './surface-types.js';

/** Two overrides of one tool, `over` winning field by field; annotations and fixed arguments merge. */
const layerTool = (below: ToolOverride | undefined, over: ToolOverride): ToolOverride => {
  if (below === undefined) return over;
  const annotations =
    below.annotations === undefined && over.annotations === undefined ? {} : { annotations: { ...below.annotations, ...over.annotations } };
  const fixed =
    below.arguments === undefined && over.arguments === undefined ? {} : { arguments: { ...below.arguments, ...over.arguments } };
  return { ...below, ...over, ...annotations, ...fixed };
};

/** A server's overrides with a profile's laid over them, item by item: the profile's fields win. */
export const layerOverrides = (base: Overrides, over: Overrides | undefined): Overrides => {
  if (over === undefined || (Object.keys(over.tools).length === 0 && Object.keys(over.prompts).length === 0)) return base;
  const tools: Record<string, ToolOverride> = { ...base.tools };
  for (const [name, override] of Object.entries(over.tools))
    tools[name] = layerTool(Object.hasOwn(base.tools, name) ? base.tools[name] : undefined, override);
  const prompts: Record<string, PromptOverride> = { ...base.prompts };
  for (const [name, override] of Object.entries(over.prompts))
    prompts[name] = { ...(Object.hasOwn(base.prompts, name) ? base.prompts[name] : {}), ...override };
  return { tools, prompts };
};

type Schema = Tool['inputSchema'];

/** The input schema without the fixed arguments: gone from `properties` and `required`. */
const withoutArguments = (schema: Schema, fixed: Readonly<Record<string, unknown>>): Schema => {
  const names = Object.keys(fixed);
  const properties = schema.properties === undefined ? undefined : { ...schema.properties };
  for (const name of names) if (properties !== undefined) delete properties[name];
  const required = schema.required?.filter((name) => !names.includes(name));
  return {
    ...schema,
    ...(properties === undefined ? {} : { properties }),
    ...(required === undefined ? {} : { required }),
  };
};

/** A tool as its override makes it (the name on its server, before the prefix). */
export const overrideTool = (tool: Tool, override: ToolOverride | undefined): Tool => {
  if (override === undefined) return tool;
  const { name, title, description, annotations, arguments: fixed } = override;
  return {
    ...tool,
    ...(name === undefined ? {} : { name }),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(annotations === undefined ? {} : { annotations: { ...tool.annotations, ...annotations } }),
    ...(fixed === undefined ? {} : { inputSchema: withoutArguments(tool.inputSchema, fixed) }),
  };
};

export const overridePrompt = (prompt: Prompt, override: PromptOverride | undefined): Prompt => {
  if (override === undefined) return prompt;
  const { name, title, description } = override;
  return {
    ...prompt,
    ...(name === undefined ? {} : { name }),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
  };
};

/** A call's arguments with the fixed ones laid over what the caller sent (the caller cannot choose them). */
export const injectArguments = (
  args: Readonly<Record<string, unknown>> | undefined,
  fixed: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined => (fixed === undefined ? (args as Record<string, unknown> | undefined) : { ...args, ...fixed });
