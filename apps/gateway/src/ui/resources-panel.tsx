import type { ReactNode } from 'react';
import { useState } from 'react';
import { ListView, PanelFrame, Row, ScrollView } from './components.js';
import { clamp, clip, columnWidth, cycle, describeFailure, pad, widthShare, wrapText } from './format.js';
import type { ResourceInfo, TemplateInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { useScroll } from './scroll.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const resourcesHelp = '↑↓ select  s server  enter read  esc back  tab panels  q quit';
const readHelp = '↑↓ scroll  esc back  q quit';

type Entry = { readonly kind: 'resource'; readonly item: ResourceInfo } | { readonly kind: 'template'; readonly item: TemplateInfo };

type Mode =
  | { readonly kind: 'list' }
  | { readonly kind: 'read'; readonly entry: Entry; readonly running: boolean; readonly text: string; readonly isError: boolean };

/** The most of a resource the panel shows: enough to read, not enough to stall the terminal. */
const maxChars = 100_000;
const maxRows = 5000;

const address = (entry: Entry): string => (entry.kind === 'resource' ? entry.item.uri : entry.item.uriTemplate);

/** Resources, then resource templates (marked); enter reads a resource. */
export const ResourcesPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const [selected, setSelected] = useState(0);
  const [server, setServer] = useState<string | undefined>();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const scroll = useScroll();
  const bodyHeight = Math.max(1, height - 2);

  const entries: Entry[] = [
    ...model.resources().map((item): Entry => ({ kind: 'resource', item })),
    ...model.templates().map((item): Entry => ({ kind: 'template', item })),
  ].filter((entry) => server === undefined || entry.item.server === server);
  const current = clamp(selected, entries.length);

  const read = (entry: Entry): void => {
    scroll.reset();
    if (entry.kind === 'template') {
      const { item } = entry;
      const text = [
        `template ${item.uriTemplate}`,
        `server: ${item.server}`,
        '',
        item.description ?? '(no description)',
        '',
        'A template is read through a client with its variables filled in.',
      ].join('\n');
      setMode({ kind: 'read', entry, running: false, text, isError: false });
      return;
    }
    setMode({ kind: 'read', entry, running: true, text: 'reading…', isError: false });
    model.readResource(entry.item.uri).then(
      (text) => {
        const cut = text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters not shown)` : text;
        setMode({ kind: 'read', entry, running: false, text: cut, isError: false });
      },
      (error: unknown) => setMode({ kind: 'read', entry, running: false, text: describeFailure(error), isError: true }),
    );
  };
  const text = mode.kind === 'read' ? wrapText(mode.text, width).slice(0, maxRows) : [];

  useKeys(
    (input, key) => {
      if (mode.kind === 'read') {
        if (key.escape) setMode({ kind: 'list' });
        else scroll.handle(key, text.length, bodyHeight);
        return;
      }
      if (key.upArrow) setSelected(clamp(current - 1, entries.length));
      else if (key.downArrow) setSelected(clamp(current + 1, entries.length));
      else if (key.pageUp) setSelected(clamp(current - 10, entries.length));
      else if (key.pageDown) setSelected(clamp(current + 10, entries.length));
      else if (input === 's') {
        setServer(
          cycle(
            model.servers().map((s) => s.id),
            server,
          ),
        );
        setSelected(0);
      } else if (key.escape) setServer(undefined);
      else if (key.return) {
        const entry = entries[current];
        if (entry !== undefined) read(entry);
      }
    },
    { isActive: active },
  );

  if (mode.kind === 'read') {
    const suffix = mode.running ? ' — reading…' : mode.isError ? ' — error' : '';
    return (
      <PanelFrame height={height} help={readHelp} width={width}>
        <Row text={`${address(mode.entry)}${suffix}`} width={width} bold color="cyan" />
        <ScrollView lines={text} offset={scroll.offset} height={bodyHeight} width={width} color={mode.isError ? 'red' : undefined} />
      </PanelFrame>
    );
  }
  const resources = entries.filter((entry) => entry.kind === 'resource').length;
  const nameWidth = columnWidth(
    entries.map((entry) => entry.item.name),
    widthShare(width, 0.3, 24),
    4,
  );
  const serverWidth =
    columnWidth(
      entries.map((entry) => entry.item.server),
      widthShare(width, 0.2, 16),
    ) + 2;
  return (
    <PanelFrame height={height} help={resourcesHelp} width={width}>
      <Row text={`server: ${server ?? 'all'}  ${resources} resources  ${entries.length - resources} templates`} width={width} dim />
      <ListView
        items={entries}
        selected={current}
        height={bodyHeight}
        width={width}
        empty="(no resources)"
        row={(entry, room, isSelected) => (
          <Row
            text={`${entry.kind === 'template' ? 'T ' : '  '}${pad(clip(entry.item.name, nameWidth), nameWidth)}  ${pad(`[${entry.item.server}]`, serverWidth)}  ${address(entry)}`}
            width={room}
            inverse={isSelected}
            color={entry.kind === 'template' ? 'magenta' : undefined}
          />
        )}
      />
    </PanelFrame>
  );
};
