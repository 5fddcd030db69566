import type { BackendState } from '@promptyard/router';

/** One terminal row: control characters flattened, cut to `width` with an ellipsis. Rows never wrap. */
export const clip = (text: string, width: number): string => {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\t\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
  if (width <= 0) return '';
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
};

/**
 * A column as wide as its longest value, between `min` and `max`. Callers derive `max` from the
 * terminal's width, so a wider terminal shows longer names instead of cutting them where an
 * 80-column one must.
 */
export const columnWidth = (values: readonly string[], max: number, min = 2): number =>
  Math.max(min, Math.min(max, Math.max(0, ...values.map((value) => value.length))));

/** `share` of `width`, and never less than `floor` (what an 80-column terminal gets). */
export const widthShare = (width: number, share: number, floor: number): number => Math.max(floor, Math.floor(width * share));

export const pad = (text: string, width: number): string => (text.length >= width ? text : text + ' '.repeat(width - text.length));

/** Text broken into rows of at most `width` characters, at spaces where it can. */
export const wrapText = (text: string, width: number): string[] => {
  const rows: string[] = [];
  const size = Math.max(1, width);
  for (const paragraph of text.replace(/\t/g, '  ').split('\n')) {
    let rest = paragraph.trimEnd();
    if (rest === '') rows.push('');
    while (rest !== '') {
      if (rest.length <= size) {
        rows.push(rest);
        break;
      }
      const space = rest.lastIndexOf(' ', size);
      const cut = space > size / 2 ? space : size;
      rows.push(rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
  }
  return rows;
};

/** `45s`, `12m`, `3h04m`, `2d03h`; `-` when the server is not running. */
export const uptime = (seconds: number | undefined): string => {
  if (seconds === undefined) return '-';
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (s < 86_400) return `${Math.floor(s / 3600)}h${two(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d${two(Math.floor((s % 86_400) / 3600))}h`;
};

/** `0.4 ms`, `12 ms`, `1.5 s`: a latency the backend's window of recent calls estimates (±9 %, so no more digits than that). */
export const latency = (ms: number): string => {
  if (ms < 0.1) return '< 0.1 ms';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
};

export const stateColor = (state: BackendState): string => {
  switch (state) {
    case 'ready':
      return 'green';
    case 'starting':
    case 'restarting':
      return 'yellow';
    case 'failed':
      return 'red';
    case 'needs-login':
      return 'magenta';
    case 'disabled':
    case 'stopped':
      return 'gray';
  }
};

/** The first row shown of a list of `length` rows in `height` rows, keeping `selected` in view. */
export const windowStart = (length: number, selected: number, height: number): number => {
  if (length <= height || height <= 0) return 0;
  const start = selected - Math.floor(height / 2);
  return Math.max(0, Math.min(start, length - height));
};

export const clamp = (value: number, length: number): number => Math.max(0, Math.min(value, length - 1));

export const clockTime = (time: Date): string =>
  [time.getHours(), time.getMinutes(), time.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');

/** Cycles `current` through undefined (all) and each of `values`. */
export const cycle = (values: readonly string[], current: string | undefined): string | undefined => {
  if (values.length === 0) return undefined;
  if (current === undefined) return values[0];
  const index = values.indexOf(current);
  return index === -1 || index === values.length - 1 ? undefined : values[index + 1];
};

/** How a typed key changes a one-line input: the new value, or undefined when the key is not an edit. */
export const editLine = (
  value: string,
  input: string,
  key: { readonly backspace: boolean; readonly delete: boolean; readonly ctrl: boolean; readonly meta: boolean },
): string | undefined => {
  if (key.backspace || key.delete) return value.slice(0, -1);
  if (key.ctrl || key.meta || input === '') return undefined;
  // eslint-disable-next-line no-control-regex
  const text = input.replace(/[\u0000-\u001f\u007f]/g, '');
  return text === '' ? undefined : value + text;
};

export const describeFailure = (error: unknown): string => (error instanceof Error ? error.message : String(error));
