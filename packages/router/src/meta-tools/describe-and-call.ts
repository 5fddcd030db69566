import { closestNames, didYouMean, isPromptyardError } from '@promptyard/core';
import type { CallContext } from '../calls/call-context.js';
import { eachQuoted } from '../routes/not-found.js';
import type { CallToolResult } from '../sdk/upstream-types.js';
import { allowedOf, stringArg, text, visiblePrompt, visibleTool } from './caller-view.js';
import type { MetaToolHost } from './caller-view.js';

/** The gateway's own tools: call_tool does not call them (a client calls them directly). */
const metaToolNames: ReadonlySet<string> = new Set([
  'catalog_tools',
  'describe_tool',
  'search_tools',
  'call_tool',
  'catalog_prompts',
  'describe_prompt',
  'search_prompts',
]);

/** describe_tool: one tool's full definition and server. */
export const describeTool = (host: MetaToolHost, args: Record<string, unknown>, context: CallContext): CallToolResult => {
  const name = stringArg(args, 'name');
  if (name === undefined) return text('Give the tool name: describe_tool {"name": "<server>_<tool>"}.', true);
  const tool = visibleTool(host, name, context);
  if (tool === undefined) {
    const known = allowedOf('tools', host.allTools(), context).map((candidate) => candidate.name);
    const hint = didYouMean(closestNames(name, known), 'sentence', eachQuoted);
    return text(`Tool "${name}" not found.${hint} search_tools finds tools by words.`, true);
  }
  return text(JSON.stringify({ ...tool, server: host.toolOwner(name)?.server }, null, 2));
};

/** describe_prompt: one prompt's full definition and server. */
export const describePrompt = (host: MetaToolHost, args: Record<string, unknown>, context: CallContext): CallToolResult => {
  const name = stringArg(args, 'name');
  if (name === undefined) return text('Give the prompt name: describe_prompt {"name": "<server>_<prompt>"}.', true);
  const prompt = visiblePrompt(host, name, context);
  if (prompt === undefined) {
    const known = allowedOf('prompts', host.listPrompts(), context).map((candidate) => candidate.name);
    return text(`Prompt "${name}" not found.${didYouMean(closestNames(name, known), 'sentence', eachQuoted)}`, true);
  }
  return text(JSON.stringify({ ...prompt, server: host.promptOwner(name)?.server }, null, 2));
};

/** call_tool: a backend tool by name, checked against the caller's policy as a direct call would be. */
export const callTool = (
  host: MetaToolHost,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<CallToolResult> | CallToolResult => {
  const name = stringArg(args, 'name');
  if (name === undefined) return text('Give the tool name: call_tool {"name": "<server>_<tool>", "arguments": {…}}.', true);
  if (metaToolNames.has(name)) return text(`call_tool calls the servers' tools, not the gateway's own "${name}": call it directly.`, true);
  const value = args['arguments'];
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    return text('"arguments" must be an object of the tool\'s arguments.', true);
  // The target is checked (and audited) as if the caller had called it directly; a refusal is
  // this tool's error, in the words of a direct call's.
  try {
    context.access?.check('tool', name, value as Record<string, unknown> | undefined);
  } catch (error) {
    if (isPromptyardError(error)) return text(error.message, true);
    throw error;
  }
  return host.callTool(name, value as Record<string, unknown> | undefined, context);
};
