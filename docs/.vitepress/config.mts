// The documentation site: `pnpm docs:build` writes docs/.vitepress/dist, `pnpm docs:dev` serves it with
// hot reload. Search is VitePress's own local index (MiniSearch in the browser): no service, no key.
import { defineConfig, type DefaultTheme } from 'vitepress';

const clientPages: [text: string, page: string][] = [
  ['Overview', 'index'],
  ['Claude Desktop', 'claude-desktop'],
  ['Claude Code', 'claude-code'],
  ['Cursor', 'cursor'],
  ['VS Code', 'vscode'],
  ['Windsurf', 'windsurf'],
  ['Zed', 'zed'],
  ['Continue', 'continue'],
  ['Codex', 'codex'],
  ['Gemini CLI', 'gemini-cli'],
];
const clients: DefaultTheme.SidebarItem[] = clientPages.map(([text, page]) => ({
  text,
  link: page === 'index' ? '/clients/' : `/clients/${page}`,
}));

export default defineConfig({
  title: 'Promptyard',
  description: "Serve a team's prompt libraries, context sources and search tools to every MCP client.",
  lang: 'en',
  cleanUrls: true,
  lastUpdated: false,
  markdown: {
    // Prompt templates are full of `{{ name }}`: inline code is shown as written, never read as a Vue expression.
    config(md) {
      const inline = md.renderer.rules.code_inline;
      md.renderer.rules.code_inline = (tokens, index, options, env, self) =>
        (inline ? inline(tokens, index, options, env, self) : self.renderToken(tokens, index, options)).replace(/^<code/, '<code v-pre');
    },
  },
  // The client pages, the container page and the JSON Schema page are written beside the code they document;
  // a link to one that is missing fails tests/docs/site.test.ts (which crawls the built site) rather than the build.
  ignoreDeadLinks: [/^\.{0,2}\/?(?:\.\.\/)*clients\//, /(?:^|\/)(?:deploy\/)?container$/, /(?:^|\/)(?:reference\/)?json-schema$/],
  // Pages link to the repository's files (deploy/, examples/, packages/) by their path in code spans, not as links.
  themeConfig: {
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Clients', link: '/clients/' },
      { text: 'Gateway', link: '/gateway/' },
      { text: 'Teams', link: '/teams/' },
      { text: 'Reference', link: '/reference/configuration' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Prompt formats', link: '/guide/prompt-formats' },
          { text: 'Serving prompts', link: '/guide/server' },
          { text: 'Agent Skills', link: '/guide/skills' },
          { text: 'Resources', link: '/guide/resources' },
          { text: 'Search tools', link: '/guide/search' },
          { text: 'A library from git', link: '/guide/git-libraries' },
        ],
      },
      { text: 'Clients', collapsed: false, items: clients },
      {
        text: 'Gateway',
        items: [
          { text: 'Many servers behind one', link: '/gateway/' },
          { text: 'Meta tools and lazy mode', link: '/gateway/meta-tools' },
          { text: 'Terminal UI', link: '/gateway/terminal-ui' },
          { text: 'Operator console', link: '/gateway/console' },
        ],
      },
      {
        text: 'Teams',
        items: [
          { text: 'OAuth sign-in', link: '/teams/' },
          { text: 'Who may use what', link: '/teams/policy' },
          { text: 'Profiles and overrides', link: '/teams/profiles' },
          { text: 'Pinned definitions', link: '/teams/pins' },
          { text: 'Approvals', link: '/teams/approvals' },
          { text: 'The audit trail', link: '/teams/audit' },
          { text: 'Servers behind OAuth', link: '/teams/servers-behind-oauth' },
        ],
      },
      {
        text: 'Operations',
        items: [
          { text: 'Deployment', link: '/deploy/' },
          { text: 'Container image', link: '/deploy/container' },
          { text: 'Running a cluster', link: '/cluster' },
          { text: 'Metrics and traces', link: '/metrics' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Configuration', link: '/reference/configuration' },
          { text: 'JSON Schema', link: '/reference/json-schema' },
        ],
      },
      {
        text: 'Extending',
        items: [
          { text: 'Writing a provider', link: '/providers' },
          { text: 'Contributing', link: '/contributing' },
        ],
      },
    ],
  },
});
