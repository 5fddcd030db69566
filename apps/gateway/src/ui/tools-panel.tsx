import { Box } from 'ink';
import type { ReactNode } from 'react';
import { InputLine, ItemFrame, Row, ScrollView } from './components.js';
import { describeFailure, editLine, wrapText } from './format.js';
import type { ToolInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { catalogKeyOptions, catalogListKey, useListDetails } from './use-list-details.js';
import { CatalogListPanel, useSearchList } from './search-list.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const toolsHelp = '↑↓ select  / search  s server  enter details  c call  esc back  q quit';
const detailsHelp = '↑↓ scroll  c call  esc back  q quit';
const callHelp = 'type JSON arguments  enter call  esc cancel';
const resultHelp = '↑↓ scroll  c call again  esc back  q quit';

/** The call's input: the JSON arguments being typed, and why the last ones were refused. */
interface CallInput {
  readonly json: string;
  readonly error?: string;
}

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
  const panel = useListDetails<ToolInfo, CallInput>({ height, details: true });
  const { view, scroll, bodyHeight } = panel;
  const callForm = (tool: ToolInfo): true => {
    panel.open({ kind: 'input', item: tool, input: { json: '{}' } });
    return true;
  };
  const call = (tool: ToolInfo, json: string): void => {
    const args = parseArguments(json);
    if (typeof args === 'string') {
      panel.update({ kind: 'input', item: tool, input: { json, error: args } });
      return;
    }
    const calling = model
      .callTool(tool.name, args)
      .then((result) => ({ text: result.text.slice(0, maxResultChars), isError: result.isError }));
    panel.run(tool, 'calling…', calling);
  };

  const text = view.kind === 'details' ? toolDetails(view.item, width) : view.kind === 'result' ? wrapText(view.text, width) : [];

  useKeys(
    (input, key) => {
      switch (view.kind) {
        case 'list':
          catalogListKey(panel, list, input, key, { key: 'c', act: callForm });
          return;
        case 'details':
        case 'result':
          panel.browse(input, key, text.length, (typed) => typed === 'c' && callForm(view.item));
          return;
        case 'input': {
          if (key.escape) panel.back();
          else if (key.return) call(view.item, view.input.json);
          else {
            const json = editLine(view.input.json, input, key);
            if (json !== undefined) panel.update({ kind: 'input', item: view.item, input: { json } });
          }
          return;
        }
      }
    },
    catalogKeyOptions(panel, list, active),
  );

  if (view.kind === 'list')
    return <CatalogListPanel list={list} noun="tools" help={toolsHelp} height={height} bodyHeight={bodyHeight} width={width} />;
  const help = view.kind === 'details' ? detailsHelp : view.kind === 'input' ? callHelp : resultHelp;
  return (
    <ItemFrame
      title={`${view.item.name}${view.kind === 'result' ? (view.running ? ' — calling…' : view.isError ? ' — error' : ' — result') : ''}`}
      help={help}
      height={height}
      bodyHeight={bodyHeight}
      width={width}
      form={view.kind === 'input' ? <CallForm tool={view.item} input={view.input} width={width} bodyHeight={bodyHeight} /> : undefined}
      lines={text}
      offset={scroll.offset}
      isError={view.kind === 'result' && view.isError}
    />
  );
};

/** The arguments typed as a JSON object, or why they are not one. */
const parseArguments = (json: string): Record<string, unknown> | string => {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (error) {
    return `invalid JSON: ${describeFailure(error)}`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'arguments must be a JSON object, e.g. {"text": "hi"}';
  return args as Record<string, unknown>;
};

/** The JSON arguments' input line, the refusal under it, then the tool's details. */
const CallForm = ({
  tool,
  input,
  width,
  bodyHeight,
}: {
  readonly tool: ToolInfo;
  readonly input: CallInput;
  readonly width: number;
  readonly bodyHeight: number;
}): ReactNode => (
  <Box flexDirection="column">
    <Row text={`call ${tool.name} with JSON arguments:`} width={width} />
    <InputLine label="> " value={input.json} width={width} focused />
    {input.error === undefined ? null : <Row text={input.error} width={width} color="red" />}
    <Box marginTop={1} flexDirection="column">
      <ScrollView
        lines={toolDetails(tool, width).slice(0, Math.max(0, bodyHeight - 4))}
        offset={0}
        height={Math.max(1, bodyHeight - 4)}
        width={width}
      />
    </Box>
  </Box>
);
