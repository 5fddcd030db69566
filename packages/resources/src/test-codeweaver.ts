/**
 * A fake `codeweaver` CLI for tests (not built, not published): a small Node script written to a
 * bin folder that tests put on PATH. It parses flags like Go's `flag` package (unknown flag → usage
 * on stderr, exit 2), requires `-input` to be a directory (exit 2), writes CodeWeaver's Markdown
 * (`# Tree View:` + `# Content:` with fenced files, `\.git.*` ignored) to `-output <file>` or, as
 * the newest build does, to stdout for `-output -`, and logs ANSI-coloured lines. FAKE_CODEWEAVER_MODE
 * picks a failure: `fail` (stderr + exit 1), `silent` (exit 0, writes nothing), `hang`.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const script = `
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const flags = { input: '.', output: 'codebase.md' };
const known = new Set(['input', 'output', 'ignore', 'include', 'instruction', 'here', 'version', 'h', 'help']);
for (let i = 0; i < args.length; i++) {
  const name = args[i].replace(/^--?/, '');
  if (!known.has(name)) { process.stderr.write('flag provided but not defined: ' + args[i] + '\\nUsage of codeweaver:\\n  -input string\\n  -output string\\n'); process.exit(2); }
  if (name === 'h' || name === 'help') { process.stderr.write('Usage of codeweaver:\\n  -input string\\n  -output string (use - to stream Markdown to stdout)\\n  -here\\n'); process.exit(0); }
  if (name === 'version') { process.stdout.write('CodeWeaver 0.0.0-fake\\ncommit: none\\nbuilt: unknown\\n'); process.exit(0); }
  if (name === 'here') continue;
  flags[name] = args[++i];
}
const mode = process.env.FAKE_CODEWEAVER_MODE || '';
if (mode === 'hang') setInterval(() => {}, 1000);
else if (mode === 'fail') { process.stderr.write('\\u001b[31mpanic: runtime error\\u001b[0m\\ngoroutine 1 [running]:\\nmain.main()\\n'); process.exit(1); }
else if (mode === 'silent') process.exit(0);
else {
  const root = flags.input;
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) { process.stderr.write('Error: input ' + root + ' is not a directory\\n'); process.exit(2); }
  const tree = [root.split(path.sep).join('/')];
  const files = [];
  const walk = (dir, prefix) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !/\\.git.*/.test(path.relative(root, path.join(dir, e.name)).split(path.sep).join('/'))).sort((a, b) => a.name.localeCompare(b.name));
    entries.forEach((e, i) => {
      const last = i === entries.length - 1;
      tree.push(prefix + (last ? '└── ' : '├── ') + e.name);
      if (e.isDirectory()) walk(path.join(dir, e.name), prefix + (last ? '    ' : '│   '));
      else files.push(path.join(dir, e.name));
    });
  };
  walk(root, '');
  let md = '# Tree View:\\n\`\`\`\\n' + tree.join('\\n') + '\\n\`\`\`\\n\\n# Content:\\n\\n';
  for (const file of files) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    md += rel + '\\n\`\`\`' + path.extname(file).slice(1) + '\\n' + fs.readFileSync(file, 'utf8') + '\\n\`\`\`\\n\\n';
  }
  if (flags.output === '-') process.stdout.write(md);
  else { fs.writeFileSync(flags.output, md); process.stdout.write('\\u001b[32mMarkdown written to ' + flags.output + '\\u001b[0m\\n'); }
}
`;

/** Writes the fake as `<binDir>/<name>` (executable) and returns its path. */
export const installFakeCodeweaver = async (binDir: string, name = 'codeweaver'): Promise<string> => {
  await mkdir(binDir, { recursive: true });
  const file = join(binDir, name);
  await writeFile(file, `#!${process.execPath}\n${script}`);
  await chmod(file, 0o755);
  return file;
};
