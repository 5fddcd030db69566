import { Box, Text, useApp, useStdout } from 'ink';
import type { Key } from 'ink';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { clip } from './format.js';
import { useLiveModel } from './live.js';
import { LogsPanel } from './logs-panel.js';
import type { UiModel } from './model.js';
import type { PanelProps } from './panel.js';
import { PinsPanel } from './pins-panel.js';
import { PromptsPanel } from './prompts-panel.js';
import { ResourcesPanel } from './resources-panel.js';
import { ServersPanel } from './servers-panel.js';
import { ToolsPanel } from './tools-panel.js';
import { KeyRoot } from './keys.js';

const panels: readonly {
  readonly title: string;
  readonly Panel: (props: PanelProps) => ReactNode;
  /** A count the tab shows beside its title when there is something to look at. */
  readonly badge?: (model: UiModel) => number;
}[] = [
  { title: 'Servers', Panel: ServersPanel },
  { title: 'Tools', Panel: ToolsPanel },
  { title: 'Prompts', Panel: PromptsPanel },
  { title: 'Resources', Panel: ResourcesPanel },
  { title: 'Logs', Panel: LogsPanel },
  { title: 'Pins', Panel: PinsPanel, badge: (model) => model.quarantined().length },
];

const sizeOf = (stdout: NodeJS.WriteStream): { readonly columns: number; readonly rows: number } => ({
  columns: stdout.columns > 0 ? stdout.columns : 80,
  rows: stdout.rows > 0 ? stdout.rows : 24,
});

/** The terminal's size, following resizes; 80×24 when the stream does not say. */
const useTerminalSize = (): { readonly columns: number; readonly rows: number } => {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const resize = (): void => setSize(sizeOf(stdout));
    stdout.on('resize', resize);
    return () => {
      stdout.off('resize', resize);
    };
  }, [stdout]);
  return size;
};

const header = (model: UiModel): string => {
  const servers = model.servers();
  const ready = servers.filter((server) => server.state === 'ready').length;
  return `promptyard-gateway · ${servers.length} servers (${ready} ready) · ${model.tools().length} tools · ${model.prompts().length} prompts · ${model.resources().length} resources`;
};

export interface AppProps {
  readonly model: UiModel;
  /** Called when the user quits (q), before the app unmounts. */
  readonly onQuit?: () => void;
}

/** The gateway's terminal UI: a header, six panels behind tabs, and each panel's keys on the last row. */
export const App = ({ model, onQuit }: AppProps): ReactNode => {
  useLiveModel(model);
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [tab, setTab] = useState(0);
  const global = (input: string, key: Key): boolean => {
    if (input === 'q') {
      onQuit?.();
      exit();
    } else if (/^[1-9]$/.test(input) && Number(input) <= panels.length) setTab(Number(input) - 1);
    else if (key.tab) setTab((current) => (current + (key.shift ? panels.length - 1 : 1)) % panels.length);
    else return false;
    return true;
  };

  const width = Math.max(20, columns);
  const panelHeight = Math.max(4, rows - 2);
  return (
    <KeyRoot global={global}>
      <Box flexDirection="column" width={width} height={rows}>
        <Text bold wrap="truncate-end">
          {clip(header(model), width)}
        </Text>
        <Text wrap="truncate-end">
          {panels.map(({ title, badge }, index) => {
            const count = badge?.(model) ?? 0;
            return (
              <Text key={title} inverse={index === tab} bold={index === tab} {...(count === 0 ? {} : { color: 'yellow' })}>
                {index === 0 ? '' : '  '}
                {`${index + 1} ${title}${count === 0 ? '' : ` (${count})`}`}
              </Text>
            );
          })}
        </Text>
        {panels.map(({ title, Panel }, index) => (
          <Box key={title} display={index === tab ? 'flex' : 'none'} flexDirection="column">
            <Panel model={model} active={index === tab} width={width} height={panelHeight} />
          </Box>
        ))}
      </Box>
    </KeyRoot>
  );
};
