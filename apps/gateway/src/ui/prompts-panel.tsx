import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { InputLine, PanelFrame, Row, ScrollView } from './components.js';
import { clamp, clip, columnWidth, describeFailure, editLine, pad, widthShare, wrapText } from './format.js';
import type { PromptInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { useScroll } from './scroll.js';
import { CatalogListPanel, useSearchList } from './search-list.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const promptsHelp = '↑↓ select  / search  s server  enter details  r render  esc back  q quit';
const detailsHelp = '↑↓ scroll  enter/r render  esc back  q quit';
const formHelp = 'tab/↑↓ field  enter next (submit on last)  ctrl-s submit  esc cancel';
const resultHelp = '↑↓ scroll  r render again  esc back  q quit';

type Mode =
  | { readonly kind: 'list' }
  | { readonly kind: 'details'; readonly prompt: PromptInfo }
  | {
      readonly kind: 'form';
      readonly prompt: PromptInfo;
      readonly values: readonly string[];
      readonly focus: number;
      readonly error?: string;
    }
  | { readonly kind: 'result'; readonly prompt: PromptInfo; readonly running: boolean; readonly text: string; readonly isError: boolean };

const promptDetails = (prompt: PromptInfo, width: number): string[] => [
  `server: ${prompt.server}`,
  ...(prompt.title === undefined ? [] : [`title: ${prompt.title}`]),
  '',
  ...wrapText(prompt.description ?? '(no description)', width),
  '',
  prompt.arguments.length === 0 ? 'no arguments' : 'arguments (* required):',
  ...prompt.arguments.map(
    (argument) =>
      `  ${argument.name}${argument.required === true ? '*' : ''}${argument.description === undefined ? '' : `  ${argument.description}`}`,
  ),
];

/** Every prompt: live search, server filter, details with arguments, and a form that renders it. */
export const PromptsPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const all = model.prompts();
  const list = useSearchList({
    all,
    search: (query, server) => model.searchPrompts(query, server),
    servers: model.servers().map((s) => s.id),
  });
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const scroll = useScroll();
  const bodyHeight = Math.max(1, height - 2);

  const open = (next: Mode): void => {
    scroll.reset();
    setMode(next);
  };
  const form = (prompt: PromptInfo): Mode => ({ kind: 'form', prompt, values: prompt.arguments.map(() => ''), focus: 0 });
  const submit = (prompt: PromptInfo, values: readonly string[], focus: number): void => {
    const missing = prompt.arguments.find((argument, index) => argument.required === true && (values[index] ?? '') === '');
    if (missing !== undefined) {
      setMode({ kind: 'form', prompt, values, focus, error: `"${missing.name}" is required` });
      return;
    }
    const args: Record<string, string> = {};
    prompt.arguments.forEach((argument, index) => {
      const value = values[index] ?? '';
      if (value !== '') args[argument.name] = value;
    });
    open({ kind: 'result', prompt, running: true, text: 'rendering…', isError: false });
    model.renderPrompt(prompt.name, args).then(
      (text) => setMode({ kind: 'result', prompt, running: false, text, isError: false }),
      (error: unknown) => setMode({ kind: 'result', prompt, running: false, text: describeFailure(error), isError: true }),
    );
  };

  const text = mode.kind === 'details' ? promptDetails(mode.prompt, width) : mode.kind === 'result' ? wrapText(mode.text, width) : [];

  useKeys(
    (input, key) => {
      switch (mode.kind) {
        case 'list':
          if (list.handle(input, key) || list.searching) return;
          if (list.current === undefined) return;
          if (key.return) open({ kind: 'details', prompt: list.current });
          else if (input === 'r') open(form(list.current));
          return;
        case 'details':
        case 'result':
          if (key.escape) open(mode.kind === 'result' ? { kind: 'details', prompt: mode.prompt } : { kind: 'list' });
          else if (input === 'r' || (mode.kind === 'details' && key.return)) open(form(mode.prompt));
          else scroll.handle(key, text.length, bodyHeight);
          return;
        case 'form': {
          const count = mode.prompt.arguments.length;
          const move = (by: number): void => setMode({ ...mode, focus: clamp(mode.focus + by, count) });
          if (key.escape) open({ kind: 'details', prompt: mode.prompt });
          else if ((key.ctrl && input === 's') || (key.return && mode.focus >= count - 1)) submit(mode.prompt, mode.values, mode.focus);
          else if (key.return || key.downArrow || (key.tab && !key.shift)) move(1);
          else if (key.upArrow || (key.tab && key.shift)) move(-1);
          else {
            const value = editLine(mode.values[mode.focus] ?? '', input, key);
            if (value !== undefined) setMode({ ...mode, values: mode.values.map((old, index) => (index === mode.focus ? value : old)) });
          }
          return;
        }
      }
    },
    { isActive: active, typing: mode.kind === 'form' || (mode.kind === 'list' && list.searching) },
  );

  if (mode.kind === 'list')
    return <CatalogListPanel list={list} noun="prompts" help={promptsHelp} height={height} bodyHeight={bodyHeight} width={width} />;
  const help = mode.kind === 'details' ? detailsHelp : mode.kind === 'form' ? formHelp : resultHelp;
  const suffix =
    mode.kind === 'result'
      ? mode.running
        ? ' — rendering…'
        : mode.isError
          ? ' — error'
          : ' — rendered'
      : mode.kind === 'form'
        ? ' — arguments'
        : '';
  return (
    <PanelFrame height={height} help={help} width={width}>
      <Row text={`${mode.prompt.name}${suffix}`} width={width} bold color="cyan" />
      {mode.kind === 'form' ? (
        <PromptForm prompt={mode.prompt} values={mode.values} focus={mode.focus} error={mode.error} width={width} height={bodyHeight} />
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

interface PromptFormProps {
  readonly prompt: PromptInfo;
  readonly values: readonly string[];
  readonly focus: number;
  readonly error: string | undefined;
  readonly width: number;
  readonly height: number;
}

/** One input per argument (required ones marked *), the focused one's description below. */
const PromptForm = ({ prompt, values, focus, error, width, height }: PromptFormProps): ReactNode => {
  if (prompt.arguments.length === 0) return <Row text="no arguments — enter renders the prompt" width={width} />;
  const labelWidth =
    columnWidth(
      prompt.arguments.map((argument) => `${argument.name}${argument.required === true ? '*' : ''}`),
      widthShare(width, 0.3, 24),
      0,
    ) + 2;
  const rows = Math.max(1, height - 3);
  const start = Math.max(0, Math.min(focus - Math.floor(rows / 2), prompt.arguments.length - rows));
  const described = prompt.arguments[focus]?.description;
  return (
    <Box flexDirection="column">
      {prompt.arguments.slice(start, start + rows).map((argument, offset) => {
        const index = start + offset;
        const label = pad(clip(`${argument.name}${argument.required === true ? '*' : ''}`, labelWidth - 2), labelWidth - 2);
        return <InputLine key={argument.name} label={`${label}: `} value={values[index] ?? ''} width={width} focused={index === focus} />;
      })}
      {described === undefined ? null : (
        <Text dimColor wrap="truncate-end">
          {clip(described, width)}
        </Text>
      )}
      {error === undefined ? null : <Row text={error} width={width} color="red" />}
    </Box>
  );
};
