/**
 * Debian's Chromium as the console's browser tests and its benchmark launch it (playwright-core, no
 * downloaded browser): where it is, and the flags for a headless run in a container.
 */
export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];
