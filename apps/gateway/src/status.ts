import type { SurfaceStatus } from '@promptyard/router';

const pad = (value: string, width: number): string => (value.length >= width ? value : value + ' '.repeat(width - value.length));

const totals = (status: SurfaceStatus): string =>
  `${status.counts.tools} tools, ${status.counts.prompts} prompts, ${status.counts.resources} resources, ${status.counts.resourceTemplates} templates`;

/**
 * The status table of a surface (the default one, or a profile's): one row per server, then
 * collisions, quarantined definitions, the totals (resources and templates counted apart as the rows
 * do) and, for the default surface, one line per profile.
 */
export const formatStatus = (status: SurfaceStatus & { readonly profiles?: readonly SurfaceStatus[] }): string => {
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
  for (const held of status.quarantined) lines.push(`quarantined: ${held.message}`);
  const surface = status.profile === 'default' ? '' : ` (profile ${status.profile})`;
  lines.push(`total${surface}: ${totals(status)}${status.lazy ? ' (lazy: only meta tools listed)' : ''}`);
  for (const profile of status.profiles ?? [])
    lines.push(
      `profile ${profile.profile}: ${profile.backends.map((backend) => backend.id).join(', ') || 'no servers'}; ${totals(profile)}`,
    );
  return `${lines.join('\n')}\n`;
};
