import type { ReactNode } from 'react';
import { useState } from 'react';
import { ListView, PanelFrame, Row, ScrollView } from './components.js';
import { clip, columnWidth, cycle, pad, widthShare, wrapText } from './format.js';
import { useSelection } from './selection.js';
import type { ResourceInfo, TemplateInfo } from './model.js';
import type { PanelProps } from './panel.js';
import { useListDetails } from './use-list-details.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

const resourcesHelp = '↑↓ select  s server  enter read  esc back  tab panels  q quit';
const readHelp = '↑↓ scroll  esc back  q quit';

type Entry = { readonly kind: 'resource'; readonly item: ResourceInfo } | { readonly kind: 'template'; readonly item: TemplateInfo };

/** The most of a resource the panel shows: enough to read, not enough to stall the terminal. */
const maxChars = 100_000;
const maxRows = 5000;

const address = (entry: Entry): string => (entry.kind === 'resource' ? entry.item.uri : entry.item.uriTemplate);

/** What reading a template shows: it is read through a client, with its variables filled in. */
const templateText = (item: TemplateInfo): string =>
  [
    `template ${item.uriTemplate}`,
    `server: ${item.server}`,
    '',
    item.description ?? '(no description)',
    '',
    'A template is read through a client with its variables filled in.',
  ].join('\n');

/** A resource's text, cut at `maxChars` with a note of how much more there is. */
const cut = (text: string): string =>
  text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters not shown)` : text;

/** Resources, then resource templates (marked); enter reads a resource. */
export const ResourcesPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const [server, setServer] = useState<string | undefined>();
  const panel = useListDetails<Entry>({ height, details: false });
  const { view, scroll, bodyHeight } = panel;

  const entries: Entry[] = [
    ...model.resources().map((item): Entry => ({ kind: 'resource', item })),
    ...model.templates().map((item): Entry => ({ kind: 'template', item })),
  ].filter((entry) => server === undefined || entry.item.server === server);
  const selection = useSelection(entries.length);
  const { current } = selection;

  const read = (entry: Entry): void => {
    if (entry.kind === 'template')
      panel.open({ kind: 'result', item: entry, running: false, text: templateText(entry.item), isError: false });
    else
      panel.run(
        entry,
        'reading…',
        model.readResource(entry.item.uri).then((text) => ({ text: cut(text), isError: false })),
      );
  };
  const text = view.kind === 'result' ? wrapText(view.text, width).slice(0, maxRows) : [];

  useKeys(
    (input, key) => {
      if (view.kind !== 'list') {
        panel.browse(input, key, text.length);
        return;
      }
      if (selection.handle(key)) return;
      if (input === 's') {
        setServer(
          cycle(
            model.servers().map((s) => s.id),
            server,
          ),
        );
        selection.reset();
      } else if (key.escape) setServer(undefined);
      else if (key.return) {
        const entry = entries[current];
        if (entry !== undefined) read(entry);
      }
    },
    { isActive: active },
  );

  if (view.kind === 'result') {
    const suffix = view.running ? ' — reading…' : view.isError ? ' — error' : '';
    return (
      <PanelFrame height={height} help={readHelp} width={width}>
        <Row text={`${address(view.item)}${suffix}`} width={width} bold color="cyan" />
        <ScrollView lines={text} offset={scroll.offset} height={bodyHeight} width={width} color={view.isError ? 'red' : undefined} />
      </PanelFrame>
    );
  }
  return <ResourceList entries={entries} current={current} server={server} width={width} height={height} bodyHeight={bodyHeight} />;
};

interface ResourceListProps {
  readonly entries: readonly Entry[];
  readonly current: number;
  readonly server: string | undefined;
  readonly width: number;
  readonly height: number;
  readonly bodyHeight: number;
}

/** The counts and the server filter, then one row per entry: `T` for a template, name, [server], address. */
const ResourceList = ({ entries, current, server, width, height, bodyHeight }: ResourceListProps): ReactNode => {
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
