import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { callWindowSeconds } from '@promptyard/router';
import type { BackendStatus } from '@promptyard/router';
import { ListView, PanelFrame, Row } from './components.js';
import { clip, columnWidth, describeFailure, latency, pad, stateColor, uptime } from './format.js';
import { useSelection } from './selection.js';
import type { PanelProps } from './panel.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const serversHelp = '↑↓ select  r restart  d disable/enable  tab panels  q quit';

const detailRows = 5;

const details = (server: BackendStatus): string[] => [
  `${server.id}${server.server === undefined ? '' : ` — ${server.server}`}`,
  `last error: ${server.lastError ?? '-'}`,
  `pid: ${server.pid ?? '-'}   protocol: ${server.protocolVersion ?? '-'}${server.era === undefined ? '' : ` (${server.era})`}   in flight: ${server.inFlight}   p95 (${callWindowSeconds / 60} min): ${server.calls === undefined ? '-' : latency(server.calls.p95Ms)}`,
  `next retry: ${server.nextRetrySeconds === undefined ? '-' : `in ${Math.ceil(server.nextRetrySeconds)}s`}   restarts: ${server.restarts}   list changes: ${server.listChanges ?? '-'}`,
];

/** Every server: state, transport, era, uptime, restarts and counts; restart or disable the selected one. */
export const ServersPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model, 1000);
  const [message, setMessage] = useState<{ readonly text: string; readonly error: boolean } | undefined>();
  const servers = model.servers();
  const selection = useSelection(servers.length);
  const { current } = selection;
  const server = servers[current];

  const act = (label: string, run: () => Promise<void>): void => {
    setMessage({ text: `${label}…`, error: false });
    run().then(
      () => setMessage({ text: `${label}: done`, error: false }),
      (error: unknown) => setMessage({ text: `${label}: ${describeFailure(error)}`, error: true }),
    );
  };

  useKeys(
    (input, key) => {
      if (selection.handle(key) || server === undefined) return;
      if (input === 'r') act(`restart ${server.id}`, () => model.restart(server.id));
      else if (input === 'd') {
        const enable = server.state === 'disabled';
        act(`${enable ? 'enable' : 'disable'} ${server.id}`, () => model.setEnabled(server.id, enable));
      }
    },
    { isActive: active },
  );

  const idWidth = columnWidth(
    servers.map((s) => s.id),
    Math.max(24, width - 64),
  );
  const transportWidth = Math.max(5, ...servers.map((s) => s.transport.length));
  // The revision in use (2025-11-25, 2026-07-28); the era while there is none yet.
  const revision = (s: BackendStatus): string => s.protocolVersion ?? s.era ?? '-';
  const eraWidth = Math.max(1, ...servers.map((s) => revision(s).length));
  const listHeight = Math.max(1, height - 1 - detailRows - 1);
  return (
    <PanelFrame height={height} help={serversHelp} width={width}>
      <ListView
        items={servers}
        selected={current}
        height={listHeight}
        width={width}
        empty="(no servers configured)"
        row={(s, room, isSelected) => {
          const id = pad(clip(s.id, idWidth), idWidth);
          const rest = `  ${pad(s.transport, transportWidth)}  ${pad(revision(s), eraWidth)}  up ${pad(uptime(s.uptimeSeconds), 5)}  ↻${pad(String(s.restarts), 2)}  ${s.counts.tools}t ${s.counts.prompts}p ${s.counts.resources}r`;
          return (
            <Text wrap="truncate-end" inverse={isSelected}>
              {id}
              {'  '}
              <Text color={stateColor(s.state)}>{pad(s.state, 11)}</Text>
              {clip(rest, Math.max(0, room - idWidth - 13))}
            </Text>
          );
        }}
      />
      <Box flexDirection="column" marginTop={1}>
        {server === undefined
          ? null
          : details(server).map((line, index) => (
              <Row
                key={index}
                text={line}
                width={width}
                bold={index === 0}
                color={index === 1 && server.lastError !== undefined ? 'red' : undefined}
              />
            ))}
        {message === undefined ? null : <Row text={message.text} width={width} color={message.error ? 'red' : 'cyan'} />}
      </Box>
    </PanelFrame>
  );
};
