import { Box, Text } from 'ink';
import type { Key } from 'ink';
import type { ReactNode } from 'react';
import { InputLine, ItemFrame, Row } from './components.js';
import { clamp, clip, columnWidth, editLine, pad, widthShare, wrapText } from './format.js';
import type { PromptInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { catalogKeyOptions, catalogListKey, useListDetails } from './use-list-details.js';
import type { ListDetailsView } from './use-list-details.js';
import { CatalogListPanel, useSearchList } from './search-list.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const promptsHelp = '↑↓ select  / search  s server  enter details  r render  esc back  q quit';
const detailsHelp = '↑↓ scroll  enter/r render  esc back  q quit';
const formHelp = 'tab/↑↓ field  enter next (submit on last)  ctrl-s submit  esc cancel';
const resultHelp = '↑↓ scroll  r render again  esc back  q quit';

/** The render form: one value per argument, the focused one, and why the last submit was refused. */
interface RenderForm {
  readonly values: readonly string[];
  readonly focus: number;
  readonly error?: string;
}

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
  const panel = useListDetails<PromptInfo, RenderForm>({ height, details: true });
  const { view, scroll, bodyHeight } = panel;
  const openForm = (prompt: PromptInfo): true => {
    panel.open({ kind: 'input', item: prompt, input: { values: prompt.arguments.map(() => ''), focus: 0 } });
    return true;
  };
  const submit = (prompt: PromptInfo, form: RenderForm): void => {
    const args = formArguments(prompt, form.values);
    if (typeof args === 'string') panel.update({ kind: 'input', item: prompt, input: { ...form, error: args } });
    else
      panel.run(
        prompt,
        'rendering…',
        model.renderPrompt(prompt.name, args).then((text) => ({ text, isError: false })),
      );
  };

  const text = view.kind === 'details' ? promptDetails(view.item, width) : view.kind === 'result' ? wrapText(view.text, width) : [];

  useKeys(
    (input, key) => {
      switch (view.kind) {
        case 'list':
          catalogListKey(panel, list, input, key, { key: 'r', act: openForm });
          return;
        case 'details':
        case 'result':
          panel.browse(
            input,
            key,
            text.length,
            (typed, pressed) => (typed === 'r' || (view.kind === 'details' && pressed.return)) && openForm(view.item),
          );
          return;
        case 'input': {
          const next = formKey(view.input, view.item.arguments.length, input, key);
          if (next === 'cancel') panel.back();
          else if (next === 'submit') submit(view.item, view.input);
          else if (next !== undefined) panel.update({ ...view, input: next });
          return;
        }
      }
    },
    catalogKeyOptions(panel, list, active),
  );

  if (view.kind === 'list')
    return <CatalogListPanel list={list} noun="prompts" help={promptsHelp} height={height} bodyHeight={bodyHeight} width={width} />;
  const help = view.kind === 'details' ? detailsHelp : view.kind === 'input' ? formHelp : resultHelp;
  return (
    <ItemFrame
      title={`${view.item.name}${titleSuffix(view)}`}
      help={help}
      height={height}
      bodyHeight={bodyHeight}
      width={width}
      form={view.kind === 'input' ? <PromptForm prompt={view.item} form={view.input} width={width} height={bodyHeight} /> : undefined}
      lines={text}
      offset={scroll.offset}
      isError={view.kind === 'result' && view.isError}
    />
  );
};

/** The values typed as arguments (empty ones left out), or why they cannot be submitted. */
const formArguments = (prompt: PromptInfo, values: readonly string[]): Record<string, string> | string => {
  const missing = prompt.arguments.find((argument, index) => argument.required === true && (values[index] ?? '') === '');
  if (missing !== undefined) return `"${missing.name}" is required`;
  const args: Record<string, string> = {};
  prompt.arguments.forEach((argument, index) => {
    const value = values[index] ?? '';
    if (value !== '') args[argument.name] = value;
  });
  return args;
};

/** What a key does in the form of `count` arguments: submit, cancel, or the form it leaves (undefined: nothing). */
const formKey = (form: RenderForm, count: number, input: string, key: Key): 'submit' | 'cancel' | RenderForm | undefined => {
  if (key.escape) return 'cancel';
  if ((key.ctrl && input === 's') || (key.return && form.focus >= count - 1)) return 'submit';
  if (key.return || key.downArrow || (key.tab && !key.shift)) return { ...form, focus: clamp(form.focus + 1, count) };
  if (key.upArrow || (key.tab && key.shift)) return { ...form, focus: clamp(form.focus - 1, count) };
  const value = editLine(form.values[form.focus] ?? '', input, key);
  return value === undefined ? undefined : { ...form, values: form.values.map((old, index) => (index === form.focus ? value : old)) };
};

const titleSuffix = (view: ListDetailsView<PromptInfo, RenderForm>): string => {
  if (view.kind === 'input') return ' — arguments';
  if (view.kind !== 'result') return '';
  return view.running ? ' — rendering…' : view.isError ? ' — error' : ' — rendered';
};

interface PromptFormProps {
  readonly prompt: PromptInfo;
  readonly form: RenderForm;
  readonly width: number;
  readonly height: number;
}

/** One input per argument (required ones marked *), the focused one's description below. */
const PromptForm = ({ prompt, form, width, height }: PromptFormProps): ReactNode => {
  const { values, focus, error } = form;
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
