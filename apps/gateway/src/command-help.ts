/** What `promptyard-gateway help <command>` and `<command> --help` say: each command's usage, options and examples. */
import { clientCommandHelp } from '@promptyard/client-config';
import type { CommandSpec } from '@promptyard/host';

export const gatewayCommandSpecs: readonly CommandSpec[] = [
  {
    name: 'status',
    usage: 'status [--json] [--profile <name>]',
    summary:
      "Start every server of the config once, print each one's state, transport, protocol era, counts\nand last error, then stop them and exit (1 when any failed). While it waits, a line per server\nsays when it answered or timed out ([timeouts] connect_ms each, 30 s by default).",
    options: [
      ['--json', 'print the status as JSON on stdout (progress stays on stderr)'],
      ['--profile <name>', 'the status of what [profiles.<name>] shows'],
    ],
    examples: ['promptyard-gateway --config gateway.toml status', 'promptyard-gateway status --json | jq ".backends[].state"'],
  },
  {
    name: 'ui',
    usage: 'ui',
    summary:
      "A live terminal UI: every server's state (restart, disable), every tool, prompt and resource\nwith search, calls and renders, and the logs. Needs a terminal; q quits.",
    examples: ['promptyard-gateway --config gateway.toml ui'],
  },
  {
    name: 'login',
    usage: 'login <server>',
    summary:
      'Log the gateway in to an auth = "oauth" server: prints the authorization URL to open, catches\nthe redirect on a loopback port and stores the tokens (under $XDG_CONFIG_HOME/promptyard/oauth,\nelse ~/.config/…). A running gateway picks them up.',
    examples: ['promptyard-gateway --config gateway.toml login linear'],
  },
  {
    name: 'pins',
    usage: 'pins list | diff [server[/name]] | approve [server[/name]] | reject [server[/name]] | reset [server]',
    summary:
      "The definition pins of the config's servers (a file beside the OAuth tokens, or Redis with\n[cluster]): list them with their state, diff what changed since approval, approve it (a running\ngateway serves it again), reject it (it stays unapproved, marked with who said no, until it is\napproved or changes again), or reset (forget) all or one server's pins.",
    examples: [
      'promptyard-gateway pins diff github',
      'promptyard-gateway pins approve github/create_issue',
      'promptyard-gateway pins reject github/delete_repo',
    ],
  },
  {
    name: 'schema',
    usage: 'schema',
    summary:
      'Print the JSON Schema of gateway.toml on stdout, for completion and checks in an editor\n(Taplo, Even Better TOML). Reads no config, so a broken one does not keep it from you.',
    examples: ['promptyard-gateway schema > gateway.schema.json'],
  },
  {
    name: 'install',
    usage: 'install <client> [options]',
    summary: "Add this binary to an MCP client's configuration.",
    examples: [
      'promptyard-gateway install claude-code --config ~/gateway.toml',
      'promptyard-gateway install cursor --url http://127.0.0.1:3100/mcp --token-env PROMPTYARD_TOKEN',
      'promptyard-gateway install zed --dry-run',
    ],
    text: clientCommandHelp('promptyard-gateway', 'promptyard-gateway'),
  },
  {
    name: 'uninstall',
    usage: 'uninstall <client> [options]',
    summary: "Remove this binary's entry from an MCP client's configuration.",
    examples: ['promptyard-gateway uninstall claude-code', 'promptyard-gateway uninstall zed --dry-run'],
    text: clientCommandHelp('promptyard-gateway', 'promptyard-gateway'),
  },
];
