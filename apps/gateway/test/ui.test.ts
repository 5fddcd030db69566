/**
 * The terminal UI, `promptyard-gateway ui`, in a real pseudo-terminal: tmux runs the BUILT binary at
 * 80×24 over two test-server backends (alpha, beta); the test reads the screen and presses keys as a
 * user would, kills a backend from outside and watches it come back, then quits and checks that no
 * process is left. Needs tmux (apt-get install tmux; .ci/run installs it through scripts/ensure-tools.sh).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { killTree } from './backends/spawn.js';
import {
  cleanup,
  gatewayCli,
  isAlive,
  listDescendants,
  noteDescendants,
  sleep,
  testServer,
  waitDead,
  writeConfig,
} from './pass-harness.js';
import { frame, startTmux, tmuxVersion } from './tmux.mjs';
import type { TmuxSession } from './tmux.mjs';

const states = 'starting|ready|restarting|failed|disabled|stopped';

/** The state shown in `id`'s row of the Servers panel (a selection marker may come first). */
const stateOf = (screen: string, id: string): string | undefined => new RegExp(`^[^\\w\\n]*${id} +(${states})\\b`, 'm').exec(screen)?.[1];

/** `id`'s whole row on the Servers panel. */
const rowOf = (screen: string, id: string): string | undefined =>
  new RegExp(`^[^\\w\\n]*${id} +(?:${states})\\b.*$`, 'm').exec(screen)?.[0];

/** Namespaced tool names on the screen (`alpha_echo` …). */
const toolNames = (screen: string): string[] => [...new Set(screen.match(/\b(?:alpha|beta)_\w+/g) ?? [])];

/** Argument vector of a live process, from /proc (empty when it is gone). */
const argvOf = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

/** The test-server started as `--name <name>` among the pane's descendants (below the gateway). */
const backendPid = (panePid: number, name: string): number | undefined =>
  listDescendants(panePid).find((pid) => {
    const argv = argvOf(pid);
    const at = argv.indexOf('--name');
    return at >= 0 && argv[at + 1] === name;
  });

let session: TmuxSession | undefined;
let panePid: number | undefined;

afterEach(async () => {
  if (panePid !== undefined) {
    for (const pid of noteDescendants(panePid)) if (isAlive(pid) && argvOf(pid).includes(gatewayCli)) killTree(pid);
  }
  await session?.close();
  session = undefined;
  panePid = undefined;
  await cleanup(); // kills every backend noted below the pane that is still running
});

describe('promptyard-gateway ui in a terminal', () => {
  it(
    'shows the servers, filters tools live, shows a killed backend restarting and back, and quits cleanly',
    { timeout: 90_000 },
    async () => {
      await tmuxVersion(); // fails with "tmux is not installed: install it (apt-get install tmux) …"
      const config = await writeConfig({
        // A one-second backoff keeps "restarting" on screen long enough to be seen by a 100 ms poll.
        preamble: '[restart]\ninitial_ms = 1000\nmax_ms = 5000',
        servers: { alpha: testServer('alpha'), beta: testServer('beta') },
      });
      session = await startTmux({ command: process.execPath, args: [gatewayCli, 'ui', '--config', config] });
      const ui = session;
      // The pane's sh runs the gateway; the gateway and its backends are all descendants of the pane.
      panePid = await ui.panePid();
      const pid = panePid;

      // ——— Servers panel: both ready; header, tabs and help line as the contract draws them ———
      const header = /^\s*promptyard-gateway · 2 servers \(2 ready\) · \d+ tools · \d+ prompts · \d+ resources/;
      const servers = await ui.waitForScreen(
        (screen) => stateOf(screen, 'alpha') === 'ready' && stateOf(screen, 'beta') === 'ready' && header.test(screen),
        20_000,
        'alpha and beta "ready" on the Servers panel and the header "promptyard-gateway · 2 servers (2 ready) · …"',
      );
      const lines = servers.split('\n');
      expect(lines.length, frame(servers)).toBeLessThanOrEqual(24);
      expect(lines[1], frame(servers)).toMatch(/1 Servers\s+2 Tools\s+3 Prompts\s+4 Resources\s+5 Logs/);
      expect(lines.filter((line) => line.trim() !== '').at(-1), frame(servers)).toContain('q quit');
      for (const id of ['alpha', 'beta']) {
        expect(rowOf(servers, id), frame(servers)).toMatch(
          new RegExp(`${id}\\s+ready\\s+stdio\\s+\\S+\\s+up \\S.*?\\s+↻0\\s+\\d+t \\d+p \\d+r`),
        );
      }

      // ——— Tools: "/" opens the search, typing filters live ———
      await ui.press('2');
      const allTools = await ui.waitForScreen(
        (screen) => toolNames(screen).length > 0,
        5000,
        'namespaced tool names (alpha_…, beta_…) after pressing 2',
      );
      await ui.press('/');
      await ui.waitForScreen((screen) => screen !== allTools, 3000, 'the search input to open after pressing /');
      await ui.type('echo');
      await ui.waitForScreen(
        (screen) =>
          toolNames(screen).includes('alpha_echo') &&
          toolNames(screen).includes('beta_echo') &&
          toolNames(screen).every((name) => /_(?:echo|add_tool)$/.test(name)),
        5000,
        'only tools matching "echo" (alpha_echo, beta_echo; add_tool says "echo-like") after typing /echo',
      );
      const searching = await ui.capture();
      await ui.press('Escape');
      // A terminal reads ESC directly followed by "1" as Alt-1: let the Escape land on its own, as a
      // person's keystrokes would (the screen usually changes when the input closes).
      await ui.waitForScreen((screen) => screen !== searching, 1000, 'the search input to close after Escape').catch(() => undefined);
      await sleep(150);

      // ——— Back to Servers; kill alpha's backend from outside ———
      await ui.press('1');
      await ui.waitForScreen((screen) => stateOf(screen, 'alpha') === 'ready', 5000, 'the Servers panel again after Escape and 1');
      const before = noteDescendants(pid);
      const alpha = backendPid(pid, 'alpha');
      const beta = backendPid(pid, 'beta');
      expect(
        alpha,
        `no descendant of the pane (pid ${pid}) and its gateway runs "test-server.mjs --name alpha"; descendants: ${before.map((child) => `${child}: ${argvOf(child).join(' ')}`).join('; ')}`,
      ).toBeDefined();
      process.kill(alpha as number, 'SIGKILL');

      const down = await ui.waitForScreen(
        (screen) => stateOf(screen, 'alpha') !== undefined && stateOf(screen, 'alpha') !== 'ready',
        5000,
        'alpha\'s row to leave "ready" after its backend was SIGKILLed',
      );
      expect(stateOf(down, 'alpha'), frame(down)).toBe('restarting');
      const back = await ui.waitForScreen(
        (screen) => /\bready\b.*↻1\b/.test(rowOf(screen, 'alpha') ?? ''),
        15_000,
        'alpha "ready" again with "↻1" after the restart',
      );
      expect(rowOf(back, 'beta'), frame(back)).toMatch(/ready.*↻0\b/);
      const restarted = backendPid(pid, 'alpha');
      expect(restarted).toBeDefined();
      expect(restarted).not.toBe(alpha);
      expect(backendPid(pid, 'beta')).toBe(beta);

      // ——— q quits with status 0 and takes every backend with it ———
      const everyone = [pid, ...new Set([...before, ...noteDescendants(pid)])].filter((child) => child !== alpha);
      await ui.press('q');
      const code = await ui.waitForExit(10_000);
      expect(
        code,
        `exit status of "promptyard-gateway ui" after q (${JSON.stringify(await ui.status())}); output:\n${frame(await ui.captureAll())}`,
      ).toBe(0);
      const left = await waitDead(everyone, 5000);
      expect(left, `still running after q: ${left.map((child) => `${child}: ${argvOf(child).join(' ')}`).join('; ')}`).toEqual([]);
    },
  );
});
