/** What `promptyard-server help <command>` and `<command> --help` say: each command's usage, options and examples. */
import { clientCommandHelp } from '@promptyard/client-config';
import type { CommandSpec } from '@promptyard/host';

export const serverCommandSpecs: readonly CommandSpec[] = [
  {
    name: 'list',
    usage: 'list [--versions]',
    summary: 'Print every prompt the config serves, one a line: its name, its arguments (optional ones end in ?) and its description.',
    options: [['--versions', "first, each git library's commit, its kind, when it was fetched and\nwhether it is live, stale or frozen"]],
    examples: ['promptyard-server --prompts ./prompts list', 'promptyard-server --config promptyard.toml list --versions'],
  },
  {
    name: 'render',
    usage: 'render <name> [--arg key=value …]',
    summary:
      'Print a prompt rendered with the given arguments, as a client would receive it. An argument the\nprompt does not take is refused, with the closest name suggested.',
    options: [['-a, --arg <key=value>', 'an argument of the prompt; repeat for several']],
    examples: ['promptyard-server --prompts ./prompts render review --arg code="$(cat src/app.ts)" --arg language=typescript'],
  },
  {
    name: 'validate',
    usage: 'validate [--strict]',
    summary:
      'Load every source and report, as file:line, parse errors, arguments declared but unused and\nvariables used but undeclared; for the files of other tools (Claude Code, Codex, Gemini CLI,\nVS Code, Continue …), each file the tool would refuse and each construct Promptyard does not\nserve the way the tool does; with git libraries, also check promptyard.lock against their\ncommits. Exits 1 on errors, so it fits a pre-commit hook or CI.',
    options: [['--strict', 'exit 1 on warnings too']],
    examples: ['promptyard-server --prompts ./prompts validate --strict'],
  },
  {
    name: 'sync',
    usage: 'sync',
    summary: 'Fetch every git library now. Running servers that share the cache ([state] dir) move to what\nwas fetched.',
    examples: ['promptyard-server --config promptyard.toml sync'],
  },
  {
    name: 'lock',
    usage: 'lock',
    summary:
      "Write promptyard.lock: each git library's commit and the SHA-256 of every file served from it.\nServe exactly those with --frozen ([prompts] frozen = true).",
    examples: ['promptyard-server --config promptyard.toml lock && git add promptyard.lock'],
  },
  {
    name: 'versions',
    usage: 'versions <name>',
    summary: "The commits of the prompt's git library that changed the prompt's file, newest first.",
    examples: ['promptyard-server --config promptyard.toml versions review'],
  },
  {
    name: 'schema',
    usage: 'schema',
    summary:
      'Print the JSON Schema of promptyard.toml on stdout, for completion and checks in an editor\n(Taplo, Even Better TOML). Reads no config, so a broken one does not keep it from you.',
    examples: ['promptyard-server schema > promptyard.schema.json'],
  },
  {
    name: 'install',
    usage: 'install <client> [options]',
    summary: "Add this binary to an MCP client's configuration.",
    examples: [
      'promptyard-server install claude-desktop --config ~/promptyard.toml',
      'promptyard-server install vscode --workspace --dry-run',
      'promptyard-server install cursor --url http://127.0.0.1:3000/mcp --token-env PROMPTYARD_TOKEN',
    ],
    text: clientCommandHelp('promptyard-server', 'promptyard'),
  },
  {
    name: 'uninstall',
    usage: 'uninstall <client> [options]',
    summary: "Remove this binary's entry from an MCP client's configuration.",
    examples: ['promptyard-server uninstall claude-desktop', 'promptyard-server uninstall vscode --workspace --dry-run'],
    text: clientCommandHelp('promptyard-server', 'promptyard'),
  },
];
