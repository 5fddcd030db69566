import type { RouterStatus } from '@promptyard/router';

const pad = (value: string, width: number): string => (value.length >= width ? value : value + ' '.repeat(width - value.length));

/** The status table: one row per server, then collisions and the totals, counting resources and templates apart as the rows do. */
export const formatStatus = (status: RouterStatus): string => {
  const rows = status.backends.map((backend) => [
    backend.id,
    backend.state,
    backend.transport,
    backend.era === undefined ? '-' : `${backend.era}${backend.protocolVersion === undefined ? '' : ` ${backend.protocolVersion}`}`,
    String(backend.counts.tools),
    String(backend.counts.prompts),
    String(backend.counts.resources),
    String(backend.counts.resourceTemplates),
    String(backend.restarts),
    backend.lastError ?? '',
  ]);
  const header = ['server', 'state', 'transport', 'protocol', 'tools', 'prompts', 'resources', 'templates', 'restarts', 'last error'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (column === header.length - 1 ? 0 : (row[column] ?? '').length))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : pad(cell, widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map(line)];
  if (status.backends.length === 0) lines.push('(no servers configured)');
  for (const collision of status.collisions)
    lines.push(`collision: ${collision.kind} "${collision.name}" served by ${collision.kept}; ${collision.dropped} hidden`);
  lines.push(
    `total: ${status.counts.tools} tools, ${status.counts.prompts} prompts, ${status.counts.resources} resources, ${status.counts.resourceTemplates} templates${status.lazy ? ' (lazy: only meta tools listed)' : ''}`,
  );
  return `${lines.join('\n')}\n`;
};
