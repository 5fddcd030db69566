import type { Key } from 'ink';
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { summarize } from '@promptyard/router';
import { InputLine, ListView, PanelFrame, Row } from './components.js';
import { clip, columnWidth, cycle, editLine, pad, widthShare } from './format.js';
import { useSelection } from './selection.js';

export interface Named {
  readonly name: string;
  readonly server: string;
}

export interface SearchList<T> {
  readonly items: readonly T[];
  readonly selected: number;
  readonly current: T | undefined;
  readonly query: string;
  readonly searching: boolean;
  readonly server: string | undefined;
  /** Handles the list's keys (↑↓, /, s, esc, and typing while searching); true when the key was used. */
  handle(input: string, key: Key): boolean;
}

export interface SearchListOptions<T> {
  readonly all: readonly T[];
  /** The ranked matches of a query (MiniSearch, as the gateway's search_* meta tools). */
  readonly search: (query: string, server: string | undefined) => readonly Named[];
  readonly servers: readonly string[];
}

/** A list with live search (`/`), a server filter (`s`) and a selection that survives updates. */
export const useSearchList = <T extends Named>({ all, search, servers }: SearchListOptions<T>): SearchList<T> => {
  const [query, setQuery] = useState('');
  const [searching, setSearching] = useState(false);
  const [server, setServer] = useState<string | undefined>();

  let items: readonly T[];
  if (query.trim() === '') items = server === undefined ? all : all.filter((item) => item.server === server);
  else {
    const byName = new Map(all.map((item) => [item.name, item]));
    items = search(query, server).flatMap((hit) => {
      const item = byName.get(hit.name);
      return item === undefined ? [] : [item];
    });
  }
  const selection = useSelection(items.length);
  const { current } = selection;

  const startSearch = setSearching;
  const handle = (input: string, key: Key): boolean => {
    if (selection.handle(key)) return true;
    if (searching) {
      if (key.escape) {
        setQuery('');
        selection.reset();
        startSearch(false);
      } else if (key.return) startSearch(false);
      else {
        const next = editLine(query, input, key);
        if (next === undefined) return key.tab;
        setQuery(next);
        selection.reset();
      }
    } else if (input === '/') startSearch(true);
    else if (input === 's') {
      setServer(cycle(servers, server));
      selection.reset();
    } else if (key.escape && (query !== '' || server !== undefined)) {
      setQuery('');
      setServer(undefined);
      selection.reset();
    } else return false;
    return true;
  };
  return { items, selected: current, current: items[current], query, searching, server, handle };
};

/** The row above a list: the search input and the server filter, with the count. */
const FilterBar = ({
  list,
  noun,
  width,
}: {
  readonly list: SearchList<Named>;
  readonly noun: string;
  readonly width: number;
}): ReactNode => {
  const right = `server: ${list.server ?? 'all'}  ${list.items.length} ${noun}`;
  return (
    <Box>
      <Box width={Math.max(10, width - right.length - 2)}>
        {list.searching || list.query !== '' ? (
          <InputLine label="search: " value={list.query} width={Math.max(10, width - right.length - 2)} focused={list.searching} />
        ) : (
          <Text dimColor wrap="truncate-end">
            / to search
          </Text>
        )}
      </Box>
      <Text dimColor wrap="truncate-end">
        {'  '}
        {right}
      </Text>
    </Box>
  );
};

const searchHelp = 'type to search  ↑↓ select  enter done  esc clear';

export interface CatalogListPanelProps<T extends Named & { readonly description?: string | undefined }> {
  readonly list: SearchList<T>;
  /** Plural noun of the items: "tools", "prompts". */
  readonly noun: string;
  readonly help: string;
  readonly height: number;
  readonly bodyHeight: number;
  readonly width: number;
}

/** The Tools and Prompts lists: filter bar, then `name  [server]  first sentence` rows. */
export const CatalogListPanel = <T extends Named & { readonly description?: string | undefined }>({
  list,
  noun,
  help,
  height,
  bodyHeight,
  width,
}: CatalogListPanelProps<T>): ReactNode => {
  // 32 and 16 characters at 80 columns; a wider terminal gives names all it adds (64, the longest a name gets, at 120).
  const nameWidth = columnWidth(
    list.items.map((item) => item.name),
    Math.max(32, width - 56),
    4,
  );
  const serverWidth =
    columnWidth(
      list.items.map((item) => item.server),
      widthShare(width, 0.2, 16),
    ) + 2;
  const singular = noun.replace(/s$/, '');
  return (
    <PanelFrame height={height} help={list.searching ? searchHelp : help} width={width}>
      <FilterBar list={list} noun={noun} width={width} />
      <ListView
        items={list.items}
        selected={list.selected}
        height={bodyHeight}
        width={width}
        empty={list.query === '' ? `(no ${noun})` : `(no ${singular} matches "${list.query}")`}
        row={(item, room, isSelected) => (
          <Row
            text={`${pad(clip(item.name, nameWidth), nameWidth)}  ${pad(`[${item.server}]`, serverWidth)}  ${summarize(item.description)}`}
            width={room}
            inverse={isSelected}
          />
        )}
      />
    </PanelFrame>
  );
};
