/**
 * spec-kit command templates (`templates/commands/*.md`) filled the way `specify init` installs
 * them by default: spec-kit's `IntegrationBase.process_template` (github/spec-kit 1.0.2.dev0,
 * commit 27f50f7e, src/specify_cli/integrations/base.py) for its default integration `copilot`
 * (`DEFAULT_INIT_INTEGRATION`, skills mode: `/speckit-<name>`, `$ARGUMENTS`) and script type `sh`
 * (the default off Windows). What was filled is told in `_meta["dev.promptyard/filled"]`.
 */
const speckitDefaults = { agent: 'copilot', script: 'sh', argsPlaceholder: '$ARGUMENTS', invoke: '/speckit-' } as const;
export const filledMetaKey = 'dev.promptyard/filled';

/** `scripts.<variant>` of the frontmatter, read line by line as process_template reads them (values unparsed). */
const scriptCommands = (text: string): Map<string, string> => {
  const commands = new Map<string, string>();
  let inFrontmatter = false;
  let inScripts = false;
  for (const line of text.split(/\r?\n/)) {
    if (line === '---') {
      if (inFrontmatter) break;
      inFrontmatter = true;
    } else if (!inFrontmatter) {
      continue;
    } else if (line === 'scripts:') {
      inScripts = true;
    } else if (inScripts && line !== '' && !/^\s/.test(line)) {
      break;
    } else if (inScripts) {
      const match = /^\s*([A-Za-z0-9_-]+):\s*(.+)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) commands.set(match[1], match[2].trim());
    }
  }
  return commands;
};

/** `select_script_variant('sh', …)` off Windows: `sh`, then `ps`, then `py` (run with `python3`). */
const scriptFor = (commands: ReadonlyMap<string, string>): { variant: string; command: string } | undefined => {
  for (const variant of ['sh', 'ps', 'py']) {
    const command = commands.get(variant);
    if (command !== undefined) return { variant, command: variant === 'py' ? `python3 ${command}` : command };
  }
  return undefined;
};

/** `CommandRegistrar.rewrite_project_relative_paths`: repo paths become the installed `.specify/` ones. */
export const rewriteProjectPaths = (text: string, atStart: boolean): string => {
  let out = text;
  for (const [from, to] of [
    ['../../memory/', '.specify/memory/'],
    ['../../scripts/', '.specify/scripts/'],
    ['../../templates/', '.specify/templates/'],
  ] as const) {
    out = out.replaceAll(from, to);
  }
  // Python's `^` without MULTILINE is the start of the whole file: inside a body after frontmatter it never matches.
  const lead = atStart ? '(^|[\\s`"\'(])' : '([\\s`"\'(])';
  for (const folder of ['memory', 'scripts', 'templates']) {
    out = out.replace(new RegExp(`${lead}(?:\\.?/)?${folder}/`, 'g'), `$1.specify/${folder}/`);
  }
  return out.replaceAll('.specify/.specify/', '.specify/').replaceAll('.specify.specify/', '.specify/');
};

/** `resolve_command_refs` with separator `-` and prefix `/`: `__SPECKIT_COMMAND_GIT_COMMIT__` → `/speckit-git-commit`. */
const resolveCommandRefs = (text: string): string =>
  text.replace(
    /__SPECKIT_COMMAND_([A-Z][A-Z0-9_]*)__/g,
    (_whole, name: string) => `${speckitDefaults.invoke}${name.toLowerCase().replaceAll('_', '-')}`,
  );

/** The body as spec-kit's default install writes it, and what was filled (empty when nothing was). */
export const fillSpeckitBody = (text: string, body: string): { body: string; filled: Record<string, string> } => {
  const filled: Record<string, string> = {};
  let out = body;
  const script = scriptFor(scriptCommands(text));
  if (script !== undefined && out.includes('{SCRIPT}')) {
    out = out.replaceAll('{SCRIPT}', script.command);
    filled['{SCRIPT}'] = `scripts.${script.variant}`;
  }
  if (out.includes('{ARGS}')) filled['{ARGS}'] = speckitDefaults.argsPlaceholder;
  out = out.replaceAll('{ARGS}', speckitDefaults.argsPlaceholder);
  if (out.includes('__AGENT__')) filled['__AGENT__'] = speckitDefaults.agent;
  out = out.replaceAll('__AGENT__', speckitDefaults.agent);
  const rewritten = rewriteProjectPaths(out, !text.startsWith('---'));
  if (rewritten !== out) filled['paths'] = 'scripts/, memory/, templates/ → .specify/…';
  const resolved = resolveCommandRefs(rewritten);
  if (resolved !== rewritten) filled['__SPECKIT_COMMAND_<NAME>__'] = `${speckitDefaults.invoke}<name>`;
  return { body: resolved, filled };
};

/**
 * A spec-kit template's body after the default install's fills, and the `_meta` that tells them
 * (`dev.promptyard/filled`; none when nothing was filled).
 */
export const speckitFill = (text: string, body: string): { body: string; meta: Record<string, unknown> } => {
  const filled = fillSpeckitBody(text, body);
  if (Object.keys(filled.filled).length === 0) return { body, meta: {} };
  const how = `spec-kit's default install (process_template for integration ${speckitDefaults.agent}, script ${speckitDefaults.script})`;
  return { body: filled.body, meta: { [filledMetaKey]: { by: how, ...filled.filled } } };
};
