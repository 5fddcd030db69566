/**
 * Which ES modules a built binary loads: a module-load hook (node's `--import` + `register`) that
 * appends each module's URL to a file as it loads, for black-box tests of what a command leaves
 * unloaded. The hook is inherited by whatever the binary spawns, whose modules are recorded too.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const register = "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url, { data: process.env.LOADED_FILE });\n";
const hooks = [
  "import { appendFileSync } from 'node:fs';",
  'let file;',
  'export const initialize = (data) => { file = data; };',
  "export const load = (url, context, next) => { appendFileSync(file, url + '\\n'); return next(url, context); };",
  '',
].join('\n');

/** Writes the hook into `dir`: the environment that loads it, and the URLs loaded so far. */
export const recordModuleLoads = async (dir: string): Promise<{ env: Record<string, string>; loaded: () => Promise<string[]> }> => {
  await writeFile(join(dir, 'register.mjs'), register);
  await writeFile(join(dir, 'hooks.mjs'), hooks);
  const file = join(dir, 'loaded.txt');
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}`, LOADED_FILE: file },
    loaded: async () => (await readFile(file, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean),
  };
};
