/**
 * Debian's Chromium as the browser tests and the console benchmark launch it (playwright-core, no
 * downloaded browser): where it is, the flags for a headless run in a container, and the one rule for
 * a suite on a machine without it — skipped with the reason printed, or, where
 * `PROMPTYARD_REQUIRE_BROWSER=1` (CI sets it), failed: there a missing browser is a broken machine,
 * not a reason to pass without looking.
 */
import { existsSync } from 'node:fs';

export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];

/** The variable that turns a missing browser from a skip into a failure. */
const requireBrowserVariable = 'PROMPTYARD_REQUIRE_BROWSER';

const install = "bash scripts/ensure-tools.sh installs Debian's chromium";

/** Where the rule looks and prints: the process's by default, another machine's in its own test. */
interface BrowserCheck {
  readonly env?: NodeJS.ProcessEnv;
  readonly path?: string;
  readonly warn?: (line: string) => void;
}

/**
 * Whether the suite named `suite` must skip for want of Chromium (for `describe.skipIf`): false when
 * it is there; true, after printing why, when it is not; throws when it is not and the environment
 * requires it (`PROMPTYARD_REQUIRE_BROWSER=1`), which fails the test file.
 */
export const skipWithoutBrowser = (suite: string, check: BrowserCheck = {}): boolean => {
  const { env = process.env, path = chromiumPath, warn = (line: string) => void process.stderr.write(`${line}\n`) } = check;
  if (existsSync(path)) return false;
  if (env[requireBrowserVariable] === '1')
    throw new Error(`${suite}: ${path} is missing and ${requireBrowserVariable}=1 requires a browser (${install})`);
  warn(`${suite} skipped: ${path} is missing (${install}; ${requireBrowserVariable}=1 makes this a failure)`);
  return true;
};
