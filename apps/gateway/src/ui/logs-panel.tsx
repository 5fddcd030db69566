import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { PanelFrame, Row } from './components.js';
import { clip, clockTime, columnWidth, cycle, pad, widthShare } from './format.js';
import type { LogLine } from './model.js';
import type { PanelProps } from './panel.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const logsHelp = '↑↓ scroll  s server  l level  end follow  tab panels  q quit';

type Level = LogLine['level'];
/** The levels `l` cycles through; `error` also shows critical, alert and emergency. */
const thresholds = ['debug', 'info', 'notice', 'warning', 'error'] as const;
const ranks: readonly Level[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const atLeast = (level: Level, threshold: Level): boolean => ranks.indexOf(level) >= ranks.indexOf(threshold);

const levelColor = (level: Level): { readonly color?: string } =>
  atLeast(level, 'error')
    ? { color: 'red' }
    : level === 'warning'
      ? { color: 'yellow' }
      : level === 'notice'
        ? { color: 'cyan' }
        : level === 'debug'
          ? { color: 'gray' }
          : {};

/** The gateway's and every server's log lines, newest at the bottom, filtered by server and level. */
export const LogsPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const [server, setServer] = useState<string | undefined>();
  const [level, setLevel] = useState<(typeof thresholds)[number]>('debug');
  /** The newest line shown while scrolled back (new lines then leave the view alone); undefined follows the log. */
  const [pinned, setPinned] = useState<number | undefined>();
  const lines = model.logs().filter((line) => (server === undefined || line.server === server) && atLeast(line.level, level));
  const rows = Math.max(1, height - 2);
  const firstEnd = Math.min(rows, lines.length);
  const pinnedEnd = pinned === undefined ? lines.length : lines.filter((line) => line.seq <= pinned).length;
  const end = Math.max(firstEnd, pinnedEnd);
  const newer = lines.length - end;
  const scrollTo = (target: number): void => {
    const next = Math.max(firstEnd, Math.min(target, lines.length));
    setPinned(next >= lines.length ? undefined : lines[next - 1]?.seq);
  };

  useKeys(
    (input, key) => {
      if (key.upArrow) scrollTo(end - 1);
      else if (key.downArrow) scrollTo(end + 1);
      else if (key.pageUp) scrollTo(end - (rows - 1));
      else if (key.pageDown) scrollTo(end + rows - 1);
      else if (key.end) setPinned(undefined);
      else if (key.home) scrollTo(firstEnd);
      else if (input === 's') {
        const servers = ['gateway', ...model.servers().map((s) => s.id)];
        setServer(cycle(servers, server));
        setPinned(undefined);
      } else if (input === 'l') {
        setLevel(thresholds[(thresholds.indexOf(level) + 1) % thresholds.length] ?? 'debug');
        setPinned(undefined);
      }
    },
    { isActive: active },
  );

  const shown = lines.slice(Math.max(0, end - rows), end);
  const serverWidth = columnWidth(
    shown.map((line) => line.server),
    widthShare(width, 0.2, 16),
    7,
  );
  return (
    <PanelFrame height={height} help={logsHelp} width={width}>
      <Row
        text={`server: ${server ?? 'all'}  level: ${level}+  ${lines.length} lines${newer > 0 ? `  (${newer} newer below)` : ''}`}
        width={width}
        dim
      />
      <Box flexDirection="column">
        {shown.length === 0 ? <Row text="(no log lines yet)" width={width} dim /> : null}
        {shown.map((line: LogLine) => (
          <Text key={line.seq} wrap="truncate-end">
            <Text dimColor>{clockTime(line.time)} </Text>
            {pad(clip(line.server, serverWidth), serverWidth)} <Text {...levelColor(line.level)}>{pad(line.level, 7)}</Text>{' '}
            {clip(line.text, Math.max(1, width - 9 - serverWidth - 1 - 8 - 1))}
          </Text>
        ))}
      </Box>
    </PanelFrame>
  );
};
