import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { clip, windowStart } from './format.js';

export interface RowProps {
  readonly text: string;
  readonly width: number;
  readonly color?: string | undefined;
  readonly inverse?: boolean;
  readonly bold?: boolean;
  readonly dim?: boolean;
}

/** One row, cut to the width: the UI never lets a row wrap. */
export const Row = ({ text, width, color, inverse = false, bold = false, dim = false }: RowProps): ReactNode => (
  <Text wrap="truncate-end" inverse={inverse} bold={bold} dimColor={dim} {...(color === undefined ? {} : { color })}>
    {clip(text, width) || ' '}
  </Text>
);

export interface ListViewProps<T> {
  readonly items: readonly T[];
  readonly selected: number;
  readonly height: number;
  readonly width: number;
  /** The row of an item; its own colors inside. `selected` rows are shown inverse by the list. */
  readonly row: (item: T, width: number, selected: boolean) => ReactNode;
  readonly empty?: string;
}

/** A list windowed around the selection, with a marker on the selected row. */
export const ListView = <T,>({ items, selected, height, width, row, empty = '(none)' }: ListViewProps<T>): ReactNode => {
  if (items.length === 0) return <Row text={empty} width={width} dim />;
  const start = windowStart(items.length, selected, height);
  return (
    <Box flexDirection="column">
      {items.slice(start, start + height).map((item, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Box key={start + offset}>
            <Text color="cyan">{isSelected ? '› ' : '  '}</Text>
            <Box width={Math.max(1, width - 2)}>{row(item, width - 2, isSelected)}</Box>
          </Box>
        );
      })}
    </Box>
  );
};

export interface ScrollViewProps {
  readonly lines: readonly string[];
  readonly offset: number;
  readonly height: number;
  readonly width: number;
  readonly color?: string | undefined;
}

/** Rows `offset` … `offset + height` of a text, with a position hint when it does not fit. */
export const ScrollView = ({ lines, offset, height, width, color }: ScrollViewProps): ReactNode => {
  const fits = lines.length <= height;
  const shown = fits ? lines : lines.slice(offset, offset + height - 1);
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        <Row key={index} text={line} width={width} color={color} />
      ))}
      {fits ? null : <Row text={`-- rows ${offset + 1}-${offset + shown.length} of ${lines.length} --`} width={width} dim />}
    </Box>
  );
};

/** The furthest a ScrollView of `height` rows can scroll. */
export const maxOffset = (length: number, height: number): number => (length <= height ? 0 : length - (height - 1));

export interface InputLineProps {
  readonly label: string;
  readonly value: string;
  readonly width: number;
  readonly focused: boolean;
}

/** A one-line input: label, value (its end kept in view) and a cursor when focused. */
export const InputLine = ({ label, value, width, focused }: InputLineProps): ReactNode => {
  const room = Math.max(1, width - label.length - 1);
  const shown = value.length > room ? `…${value.slice(value.length - room + 1)}` : value;
  return (
    <Text wrap="truncate-end">
      <Text color={focused ? 'cyan' : 'gray'}>{label}</Text>
      <Text>{shown.replace(/[\r\n\t]/g, ' ')}</Text>
      {focused ? <Text inverse> </Text> : null}
    </Text>
  );
};

export interface PanelFrameProps {
  readonly height: number;
  readonly help: string;
  readonly width: number;
  readonly children: ReactNode;
}

/** A panel's body in a fixed number of rows, and its help on the last row of the screen. */
export const PanelFrame = ({ height, help, width, children }: PanelFrameProps): ReactNode => (
  <Box flexDirection="column" height={height}>
    <Box flexDirection="column" height={Math.max(0, height - 1)} overflow="hidden">
      {children}
    </Box>
    <Row text={help} width={width} dim />
  </Box>
);

export interface ItemFrameProps {
  /** The item's name and where the panel is with it (` — arguments`, ` — calling…` …). */
  readonly title: string;
  readonly help: string;
  readonly height: number;
  readonly bodyHeight: number;
  readonly width: number;
  /** The item's input form; without one, its text (details or result) scrolls. */
  readonly form?: ReactNode;
  readonly lines: readonly string[];
  readonly offset: number;
  /** The text is a failed result: shown in red. */
  readonly isError: boolean;
}

/** One item of a catalog panel: its title row, then its input form or its scrolled text. */
export const ItemFrame = ({ title, help, height, bodyHeight, width, form, lines, offset, isError }: ItemFrameProps): ReactNode => (
  <PanelFrame height={height} help={help} width={width}>
    <Row text={title} width={width} bold color="cyan" />
    {form ?? <ScrollView lines={lines} offset={offset} height={bodyHeight} width={width} color={isError ? 'red' : undefined} />}
  </PanelFrame>
);
