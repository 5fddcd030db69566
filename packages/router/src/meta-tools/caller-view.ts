import { closestNames, didYouMean } from '@promptyard/core';
import type { CallContext } from '../calls/call-context.js';
import type { CallToolResult, Prompt, Tool } from '../sdk/upstream-types.js';

/** What the meta tools read of the router, and the one thing they do through it: call a tool. */
export interface MetaToolHost {
  backendIds(): string[];
  /** Every backend tool, lazy mode or not. */
  allTools(): readonly Tool[];
  toolOwner(name: string): { readonly server: string } | undefined;
  backendTool(name: string): Tool | undefined;
  listPrompts(): readonly Prompt[];
  promptOwner(name: string): { readonly server: string } | undefined;
  getPromptDefinition(name: string): Prompt | undefined;
  callTool(name: string, args: Record<string, unknown> | undefined, context: CallContext): Promise<CallToolResult>;
}

export type ItemKind = 'tools' | 'prompts';

export const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError: true } : {}),
});

export const stringArg = (args: Record<string, unknown>, key: string): string | undefined => {
  const value = args[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** What the caller's `[[policy]]` lets it see: the meta tools show, describe and call nothing else. */
export const allowedOf = <T extends { readonly name: string }>(kind: ItemKind, items: readonly T[], context: CallContext): readonly T[] => {
  const { access } = context;
  return access === undefined ? items : items.filter((item) => access.allows(kind === 'tools' ? 'tool' : 'prompt', item.name));
};

export const visibleTool = (host: MetaToolHost, name: string, context: CallContext): Tool | undefined =>
  context.access !== undefined && !context.access.allows('tool', name) ? undefined : host.backendTool(name);

export const visiblePrompt = (host: MetaToolHost, name: string, context: CallContext): Prompt | undefined =>
  context.access !== undefined && !context.access.allows('prompt', name) ? undefined : host.getPromptDefinition(name);

/** The servers the caller may know of: under a policy, those with a tool or prompt it may use. */
const serverIds = (host: MetaToolHost, context: CallContext): string[] => {
  if (context.access === undefined) return host.backendIds();
  const owners = new Set<string | undefined>([
    ...allowedOf('tools', host.allTools(), context).map((tool) => host.toolOwner(tool.name)?.server),
    ...allowedOf('prompts', host.listPrompts(), context).map((prompt) => host.promptOwner(prompt.name)?.server),
  ]);
  return host.backendIds().filter((id) => owners.has(id));
};

/** The `server` argument, when it names no server the caller may know of: the error to answer with. */
export const unknownServer = (host: MetaToolHost, args: Record<string, unknown>, context: CallContext): CallToolResult | undefined => {
  const server = stringArg(args, 'server');
  if (server === undefined) return undefined;
  const ids = serverIds(host, context);
  if (ids.includes(server)) return undefined;
  const hint = didYouMean(closestNames(server, ids), 'sentence', (close) => `"${close[0] as string}"`);
  return text(`Unknown server "${server}". Servers: ${ids.join(', ') || 'none'}.${hint}`, true);
};
