import { spawnSync } from 'node:child_process';

/** The value of one series in a Prometheus text exposition (`name{labels}` exactly as printed), or 0 when absent. */
export const seriesValue = (body: string, series: string): number => {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

export const scrape = async (url: string, headers: Record<string, string> = {}): Promise<string> => {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.text();
};

/** What `promtool check metrics` says about an exposition: '' when it finds nothing. */
export const promtoolProblems = (body: string): string => {
  const checked = spawnSync('promtool', ['check', 'metrics'], { input: body, encoding: 'utf8' });
  if (checked.error !== undefined) throw new Error(`promtool is missing: run bash scripts/ensure-tools.sh (${checked.error.message})`);
  return `${checked.stdout}${checked.stderr}`.trim() + (checked.status === 0 ? '' : ` (exit ${checked.status})`);
};
