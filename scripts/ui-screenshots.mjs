#!/usr/bin/env node
// Regenerates the terminal UI screenshots in docs/gateway/terminal-ui.md (`pnpm ui:screenshots`, which builds first):
// runs the built `promptyard-gateway ui` over examples/gateway.toml in an 80×24 tmux session, visits
// each panel (1 Servers, 2 Tools searching "echo", 3 Prompts, 4 Resources, 5 Logs), captures the
// screen and writes the captures between <!-- ui-screenshots:start --> and <!-- ui-screenshots:end -->.
// Whatever happens, the tmux server and every process the UI started are gone when it ends.
//
//   node scripts/ui-screenshots.mjs [--page FILE] [--config FILE]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { frame, startTmux, tmuxVersion } from '../apps/gateway/test/tmux.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = resolve(root, 'apps/gateway/dist/cli.js');

export const startMarker = '<!-- ui-screenshots:start -->';
export const endMarker = '<!-- ui-screenshots:end -->';

/** Markdown for the captures: a heading and a fenced text block per panel. */
export const renderShots = (shots) =>
  shots
    .map(({ title, screen }) => `### ${title}\n\n\`\`\`text\n${screen.replace(/[ \t]+$/gm, '').replace(/\s+$/, '')}\n\`\`\``)
    .join('\n\n');

/** `text` with everything between the markers replaced by `body`; throws when the markers are missing. */
export const replaceBetweenMarkers = (text, body) => {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < 0 || end < start)
    throw new Error(`the page needs ${startMarker} followed by ${endMarker} (under "## Screenshots")`);
  return `${text.slice(0, start + startMarker.length)}\n\n${body}\n\n${text.slice(end)}`;
};

/** PIDs of every live process below `pid` (reads /proc), so none outlives the script. */
const descendants = (pid) => {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended while we looked
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
};

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Waits until two captures 400 ms apart agree (Ink has drawn), at most `timeoutMs`; returns the screen. */
const settled = async (ui, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  let last = await ui.capture();
  for (;;) {
    await sleep(400);
    const screen = await ui.capture();
    if (screen === last || Date.now() > deadline) return screen;
    last = screen;
  }
};

const capturePanels = async (config, note) => {
  await tmuxVersion();
  const ui = await startTmux({ command: process.execPath, args: [cli, 'ui', '--config', config], cwd: root });
  const seen = new Set();
  let pid;
  const remember = () => {
    if (pid === undefined) return;
    seen.add(pid);
    for (const child of descendants(pid)) seen.add(child);
  };
  let cleaned;
  const cleanup = () => {
    cleaned ??= (async () => {
      remember();
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        const left = [...seen].filter(alive);
        if (left.length === 0) break;
        for (const child of left) {
          try {
            process.kill(child, signal);
          } catch {
            // already gone
          }
        }
        await sleep(1000);
      }
      await ui.close();
    })();
    return cleaned;
  };
  // Ctrl-C reaches this script, not the detached tmux server: end the UI and its backends too.
  const interrupted = (signal) => {
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    pid = await ui.panePid();
    const shots = [];
    const shoot = async (title) => {
      const screen = await settled(ui);
      shots.push({ title, screen });
      remember();
      note(`${title}:\n${frame(screen)}`);
      return screen;
    };
    const allReady = (screen) => {
      const match = /promptyard-gateway · (\d+) servers \((\d+) ready\)/.exec(screen);
      return match !== null && Number(match[1]) > 0 && match[1] === match[2] && /\bready\b/.test(screen.split('\n').slice(2).join('\n'));
    };
    await ui.waitForScreen(allReady, 90_000, 'every server "ready" in the header and the Servers panel');
    remember();
    let previous = await shoot('1 Servers');

    await ui.press('2');
    await ui.waitForScreen(/\b[\w-]+_[\w-]+/, 10_000, 'namespaced tool names on the Tools panel after 2');
    const tools = await ui.capture();
    await ui.press('/');
    await ui.waitForScreen((screen) => screen !== tools, 5000, 'the search input after /');
    await ui.type('echo');
    await ui.waitForScreen(/\b[\w-]+_echo\b/, 10_000, 'a *_echo tool after typing "echo"');
    previous = await shoot('2 Tools (search "echo")');
    await ui.press('Escape');
    await sleep(300); // ESC directly followed by "3" would read as Alt-3

    for (const [key, title] of [
      ['3', '3 Prompts'],
      ['4', '4 Resources'],
      ['5', '5 Logs'],
    ]) {
      const before = previous;
      await ui.press(key);
      await ui.waitForScreen((screen) => screen !== before, 10_000, `the ${title} panel after pressing ${key}`);
      previous = await shoot(title);
    }

    await ui.press('q');
    const code = await ui.waitForExit(15_000);
    if (code !== 0) throw new Error(`promptyard-gateway ui exited with status ${code} after q`);
    return shots;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanup();
  }
};

const main = async () => {
  const { values } = parseArgs({ options: { page: { type: 'string' }, config: { type: 'string' } } });
  const page = resolve(values.page ?? resolve(root, 'docs/gateway/terminal-ui.md'));
  const config = resolve(values.config ?? resolve(root, 'examples/gateway.toml'));
  const text = readFileSync(page, 'utf8');
  replaceBetweenMarkers(text, ''); // fail before starting anything when the markers are missing
  const shots = await capturePanels(config, (message) => console.error(message));
  writeFileSync(page, replaceBetweenMarkers(text, renderShots(shots)));
  console.error(`wrote ${shots.length} screenshots to ${page}`);
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(`ui-screenshots: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
