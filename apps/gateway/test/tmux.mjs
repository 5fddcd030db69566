/**
 * Drives a terminal program in a real pseudo-terminal through tmux, for the terminal UI's black-box
 * test and `scripts/ui-screenshots.mjs`. Every session gets its own tmux server (a socket in a fresh
 * temporary folder, no user config), so nothing touches a user's tmux; `close()` kills that server.
 * Plain JavaScript so the screenshot script can run it with node; types in tmux.d.mts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const installHint = 'install it (Debian/Ubuntu: apt-get install tmux) or run scripts/ensure-tools.sh';

/** The exit status the pane's sh wrote, if it did yet. */
const readStatus = (file) => {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : Number(text);
  } catch {
    return undefined;
  }
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The environment for tmux and the program: the caller's, without the variables that make Ink (via
 * is-in-ci) think it runs in CI — there it draws only the last frame, on exit.
 */
const terminalEnv = (extra = {}) => {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value === undefined ||
      key === 'CI' ||
      key === 'CONTINUOUS_INTEGRATION' ||
      key.startsWith('CI_') ||
      key === 'TMUX' ||
      key === 'TMUX_PANE'
    )
      continue;
    env[key] = value;
  }
  return { ...env, ...extra };
};

const run = (args, env) =>
  new Promise((resolve, reject) => {
    execFile('tmux', args, { env, encoding: 'utf8', timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) {
        const missing = /** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT';
        reject(
          new Error(
            missing ? `tmux is not installed: ${installHint}.` : `tmux ${args.join(' ')} failed: ${stderr.trim() || error.message}`,
          ),
        );
      } else resolve(stdout);
    });
  });

/** `tmux -V`, or an error that says how to install tmux. */
export const tmuxVersion = async () => (await run(['-V'], terminalEnv())).trim();

const describeMatch = (match) => (typeof match === 'function' ? match.name || 'a screen predicate' : String(match));

/**
 * Starts `command args…` (under `sh -c '"$@"; exit $?'`, so no quoting issues) in a detached
 * `width`×`height` session with no status line, whose pane stays (dead) after the program exits so
 * its exit status can be read.
 */
export const startTmux = async ({ command, args = [], cwd = process.cwd(), width = 80, height = 24, env = terminalEnv() }) => {
  const dir = mkdtempSync(join(tmpdir(), 'promptyard-tmux-'));
  const socket = join(dir, 'tmux.sock');
  const conf = join(dir, 'tmux.conf');
  const statusFile = join(dir, 'exit-status');
  writeFileSync(
    conf,
    [
      'set-option -g status off',
      'set-option -wg remain-on-exit on',
      `set-option -g default-size ${width}x${height}`,
      'set-option -g history-limit 500',
      '',
    ].join('\n'),
  );
  const tmux = (...rest) => run(['-u', '-S', socket, ...rest], env);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await tmux('kill-server').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The pane runs sh, which waits for the program and writes its exit status to a file: tmux 3.3
    // marks the pane dead when the terminal closes but does not always reap the process (it stays a
    // zombie and #{pane_dead_status} stays empty), so tmux alone cannot be trusted with the status.
    const shell = [
      'sh',
      '-c',
      'status_file=$1; shift; "$@"; status=$?; echo "$status" > "$status_file"; exit "$status"',
      'sh',
      statusFile,
      command,
      ...args,
    ];
    await run(
      ['-u', '-S', socket, '-f', conf, 'new-session', '-d', '-s', 'ui', '-x', String(width), '-y', String(height), '-c', cwd, ...shell],
      env,
    );
  } catch (error) {
    await close();
    throw error;
  }
  const target = 'ui:';
  const display = async (format) => (await tmux('display-message', '-p', '-t', target, format)).replace(/\n$/, '');

  const session = {
    socket,
    /** The visible screen, one line per row (trailing blanks trimmed by tmux). */
    capture: async () => (await tmux('capture-pane', '-p', '-t', target)).replace(/\n$/, ''),
    /** The scrollback and the screen: what a failure message should show (lines may have scrolled off). */
    captureAll: async () => (await tmux('capture-pane', '-p', '-S', '-', '-E', '-', '-t', target)).replace(/\n+$/, ''),
    /** PID of the pane's process: the sh that runs the program (the program is its child). */
    panePid: async () => Number(await display('#{pane_pid}')),
    /**
     * Whether the program exited, and its exit status (from the pane's sh; a signal shows as 128+n).
     * `settled` is false while the terminal is closed but the status not yet known.
     */
    status: async () => {
      const written = readStatus(statusFile);
      if (written !== undefined) return { exited: true, settled: true, code: written };
      let line;
      try {
        line = await display('#{pane_dead}|#{pane_dead_status}');
      } catch (error) {
        // The session (or the server) is gone: the program exited and tmux did not keep the pane.
        if (/no server running|can't find|no sessions|error connecting/i.test(String(error)))
          return { exited: true, settled: true, code: readStatus(statusFile) ?? null };
        throw error;
      }
      const [dead, code = ''] = line.split('|');
      if (dead !== '1') return { exited: false, settled: false, code: null };
      return { exited: true, settled: code !== '', code: code === '' ? null : Number(code) };
    },
    /**
     * Polls the screen every 100 ms until `match` (a RegExp or a predicate on the screen text) holds;
     * resolves with that screen. Fails with the last screen when `timeoutMs` passes or the program
     * exits first.
     */
    waitForScreen: async (match, timeoutMs = 10_000, what = describeMatch(match)) => {
      const test = typeof match === 'function' ? match : (screen) => match.test(screen);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const screen = await session.capture();
        if (test(screen)) return screen;
        const { exited, code } = await session.status();
        if (exited)
          throw new Error(
            `the program exited (status ${code ?? 'unknown'}) while waiting for ${what}; its output:\n${frame(await session.captureAll())}`,
          );
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last screen:\n${frame(screen)}`);
        await sleep(100);
      }
    },
    /**
     * Sends keys: each argument is a tmux key name (Escape, Enter, Tab, Up, C-c …) or, wrapped as
     * `{ text }`, literal text sent with `send-keys -l`.
     */
    press: async (...keys) => {
      for (const key of keys) {
        if (typeof key === 'string') await tmux('send-keys', '-t', target, key);
        else await tmux('send-keys', '-t', target, '-l', key.text);
      }
    },
    /** Types `text` one character at a time, as a person would. */
    type: async (text) => {
      for (const char of text) await tmux('send-keys', '-t', target, '-l', char);
    },
    /** Waits until the program has exited; resolves with its exit status (null if it cannot be known). */
    waitForExit: async (timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      let reapDeadline;
      for (;;) {
        const { exited, settled, code } = await session.status();
        if (exited) reapDeadline ??= Date.now() + 2000;
        if (settled || (reapDeadline !== undefined && Date.now() > reapDeadline)) return code;
        if (Date.now() > deadline)
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for the program to exit; last screen:\n${frame(await session.capture())}`,
          );
        await sleep(100);
      }
    },
    close,
  };
  return session;
};

/** The screen inside a ruler, so blank lines and the edges show in a failure message. */
export const frame = (screen) => {
  const lines = screen.split('\n');
  const width = Math.max(20, ...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width)}+`;
  return [rule, ...lines.map((line) => `|${line.padEnd(width)}|`), rule].join('\n');
};
