/**
 * Configs shared by the black-box tests of profiles, overrides and the audit trail: two test-server
 * backends over stdio (alpha = test-server "a1", beta = "b1") and TOML tables written as text, so
 * each test reads like the gateway.toml a user would write.
 */
import type { Client } from '@modelcontextprotocol/client';
import { gatewayToml, stdioBackendCommand } from './harness.js';

/** `[servers.alpha]` (test-server a1) and `[servers.beta]` (test-server b1) over stdio, plus `extra` TOML after them. */
export const twoServers = (extra = '', servers: Readonly<Record<string, Record<string, unknown>>> = {}): string =>
  `${gatewayToml({
    alpha: { command: stdioBackendCommand({ name: 'a1' }), ...servers['alpha'] },
    beta: { command: stdioBackendCommand({ name: 'b1' }), ...servers['beta'] },
  })}\n${extra}\n`;

/**
 * Two profiles: `coding` sees alpha's echo, add and whoami (a brace glob), its greet prompt and none
 * of its resources; `support` sees every beta tool but add (a negated glob). Beta itself denies
 * content_kinds and progress everywhere with one brace glob.
 */
export const profilesToml = twoServers(
  `[profiles.coding]
description = "The coding agent's tools"

[profiles.coding.servers.alpha]
tools = ["{echo,add}", "whoami"]
prompts = ["greet"]
resources = []

[profiles.support.servers.beta]
tools = ["*", "!add"]
`,
  { beta: { tools: { deny: ['{content_kinds,progress}'] } } },
);

/** The names of a list, sorted. */
export const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name).sort();

export const toolNames = async (client: Client): Promise<string[]> => names((await client.listTools()).tools);

/** A call's outcome as text: the result's text, or the error's message (a refusal may come either way). */
export const outcome = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> =>
  client.callTool({ name, arguments: args }).then(
    (result) => ((result.content ?? []) as { type: string; text?: string }[]).map((block) => block.text ?? `[${block.type}]`).join('\n'),
    (error: unknown) => String(error),
  );
