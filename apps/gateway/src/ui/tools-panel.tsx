import { Box } from 'ink';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { InputLine, PanelFrame, Row, ScrollView } from './components.js';
import { describeFailure, editLine, wrapText } from './format.js';
import type { ToolInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { useScroll } from './scroll.js';
import { CatalogListPanel, useSearchList } from './search-list.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const toolsHelp = '↑↓ select  / search  s server  enter details  c call  esc back  q quit';
const detailsHelp = '↑↓ scroll  c call  esc back  q quit';
const callHelp = 'type JSON arguments  enter call  esc cancel';
const resultHelp = '↑↓ scroll  c call again  esc back  q quit';

type Mode =
  | { readonly kind: 'list' }
  | { readonly kind: 'details'; readonly tool: ToolInfo }
  | { readonly kind: 'call'; readonly tool: ToolInfo; readonly json: string; readonly error?: string }
  | { readonly kind: 'result'; readonly tool: ToolInfo; readonly running: boolean; readonly text: string; readonly isError: boolean };

const maxResultChars = 200_000;

const toolDetails = (tool: ToolInfo, width: number): string[] => [
  `server: ${tool.server}`,
  ...(tool.title === undefined ? [] : [`title: ${tool.title}`]),
  '',
  ...wrapText(tool.description ?? '(no description)', width),
  '',
  'input schema:',
  ...JSON.stringify(tool.inputSchema ?? {}, null, 2).split('\n'),
];

/** Every tool: live search, server filter, details with the input schema, and calls with JSON arguments. */
export const ToolsPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const all = model.tools();
  const list = useSearchList({
    all,
    search: (query, server) => model.searchTools(query, server),
    servers: model.servers().map((s) => s.id),
  });
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const scroll = useScroll();
  const bodyHeight = Math.max(1, height - 2);

  const open = (next: Mode): void => {
    scroll.reset();
    setMode(next);
  };
  const call = (tool: ToolInfo, json: string): void => {
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      setMode({ kind: 'call', tool, json, error: `invalid JSON: ${describeFailure(error)}` });
      return;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      setMode({ kind: 'call', tool, json, error: 'arguments must be a JSON object, e.g. {"text": "hi"}' });
      return;
    }
    open({ kind: 'result', tool, running: true, text: 'calling…', isError: false });
    model.callTool(tool.name, args as Record<string, unknown>).then(
      (result) => setMode({ kind: 'result', tool, running: false, text: result.text.slice(0, maxResultChars), isError: result.isError }),
      (error: unknown) => setMode({ kind: 'result', tool, running: false, text: describeFailure(error), isError: true }),
    );
  };

  const text = mode.kind === 'details' ? toolDetails(mode.tool, width) : mode.kind === 'result' ? wrapText(mode.text, width) : [];

  useKeys(
    (input, key) => {
      switch (mode.kind) {
        case 'list':
          if (list.handle(input, key) || list.searching) return;
          if (list.current === undefined) return;
          if (key.return) open({ kind: 'details', tool: list.current });
          else if (input === 'c') open({ kind: 'call', tool: list.current, json: '{}' });
          return;
        case 'details':
        case 'result':
          if (key.escape) open(mode.kind === 'result' ? { kind: 'details', tool: mode.tool } : { kind: 'list' });
          else if (input === 'c') open({ kind: 'call', tool: mode.tool, json: '{}' });
          else scroll.handle(key, text.length, bodyHeight);
          return;
        case 'call': {
          if (key.escape) open({ kind: 'details', tool: mode.tool });
          else if (key.return) call(mode.tool, mode.json);
          else {
            const json = editLine(mode.json, input, key);
            if (json !== undefined) setMode({ kind: 'call', tool: mode.tool, json });
          }
          return;
        }
      }
    },
    { isActive: active, typing: mode.kind === 'call' || (mode.kind === 'list' && list.searching) },
  );

  if (mode.kind === 'list')
    return <CatalogListPanel list={list} noun="tools" help={toolsHelp} height={height} bodyHeight={bodyHeight} width={width} />;
  const help = mode.kind === 'details' ? detailsHelp : mode.kind === 'call' ? callHelp : resultHelp;
  return (
    <PanelFrame height={height} help={help} width={width}>
      <Row
        text={`${mode.tool.name}${mode.kind === 'result' ? (mode.running ? ' — calling…' : mode.isError ? ' — error' : ' — result') : ''}`}
        width={width}
        bold
        color="cyan"
      />
      {mode.kind === 'call' ? (
        <Box flexDirection="column">
          <Row text={`call ${mode.tool.name} with JSON arguments:`} width={width} />
          <InputLine label="> " value={mode.json} width={width} focused />
          {mode.error === undefined ? null : <Row text={mode.error} width={width} color="red" />}
          <Box marginTop={1} flexDirection="column">
            <ScrollView
              lines={toolDetails(mode.tool, width).slice(0, Math.max(0, bodyHeight - 4))}
              offset={0}
              height={Math.max(1, bodyHeight - 4)}
              width={width}
            />
          </Box>
        </Box>
      ) : (
        <ScrollView
          lines={text}
          offset={scroll.offset}
          height={bodyHeight}
          width={width}
          color={mode.kind === 'result' && mode.isError ? 'red' : undefined}
        />
      )}
    </PanelFrame>
  );
};
