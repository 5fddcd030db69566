import type { Key } from 'ink';
import { useState } from 'react';
import { describeFailure } from './format.js';
import { useScroll } from './scroll.js';
import type { Scroll } from './scroll.js';
import type { SearchList } from './search-list.js';

/**
 * Where a panel is: its list, one item's details, the item's input (a tool's JSON arguments, a
 * prompt's form), or what running the item gave (running while it runs, red when it failed).
 */
export type ListDetailsView<T, Input> =
  | { readonly kind: 'list' }
  | { readonly kind: 'details'; readonly item: T }
  | { readonly kind: 'input'; readonly item: T; readonly input: Input }
  | { readonly kind: 'result'; readonly item: T; readonly running: boolean; readonly text: string; readonly isError: boolean };

/** What running an item gives: text, and whether it is an error. */
interface ItemResult {
  readonly text: string;
  readonly isError: boolean;
}

export interface ListDetails<T, Input> {
  readonly view: ListDetailsView<T, Input>;
  readonly scroll: Scroll;
  /** Rows for the body: the panel's less its title row and help line. */
  readonly bodyHeight: number;
  /** Shows `view` from its top. */
  open(view: ListDetailsView<T, Input>): void;
  /** Changes the view where it is (typing into an input, an error under it). */
  update(view: ListDetailsView<T, Input>): void;
  /** Shows `item`'s result: `pending` while `running` runs, then its text, or the failure in red. */
  run(item: T, pending: string, running: Promise<ItemResult>): void;
  /** Leaves the details for the list, the input and the result for the details (for the list in a panel without details). */
  back(): void;
  /**
   * The keys of the details and the result: esc goes back, `act` may take the key (true when it
   * did), the rest scroll a text of `lines` rows.
   */
  browse(input: string, key: Key, lines: number, act?: (input: string, key: Key) => boolean): void;
}

/** The list → details → input → result state machine every catalog panel shares, with its scroll. */
export const useListDetails = <T, Input = never>(options: {
  readonly height: number;
  /** The panel shows details (Tools, Prompts); without, a result goes back to the list (Resources). */
  readonly details: boolean;
}): ListDetails<T, Input> => {
  const [view, setView] = useState<ListDetailsView<T, Input>>({ kind: 'list' });
  const scroll = useScroll();
  const bodyHeight = Math.max(1, options.height - 2);
  const open = (next: ListDetailsView<T, Input>): void => {
    scroll.reset();
    setView(next);
  };
  const back = (): void => {
    if (view.kind === 'list') return;
    open(view.kind !== 'details' && options.details ? { kind: 'details', item: view.item } : { kind: 'list' });
  };
  return {
    view,
    scroll,
    bodyHeight,
    open,
    update: setView,
    run: (item, pending, running) => {
      open({ kind: 'result', item, running: true, text: pending, isError: false });
      running.then(
        (result) => setView({ kind: 'result', item, running: false, ...result }),
        (error: unknown) => setView({ kind: 'result', item, running: false, text: describeFailure(error), isError: true }),
      );
    },
    back,
    browse: (input, key, lines, act) => {
      if (key.escape) back();
      else if (act?.(input, key) !== true) scroll.handle(key, lines, bodyHeight);
    },
  };
};

/**
 * A catalog panel's list keys: the search and the selection first; enter opens the current item's
 * details, `actionKey` acts on it (calls a tool, fills a prompt's form).
 */
export const catalogListKey = <T, Input>(
  panel: ListDetails<T, Input>,
  list: SearchList<T>,
  input: string,
  key: Key,
  action: { readonly key: string; readonly act: (item: T) => void },
): void => {
  if (list.handle(input, key) || list.searching) return;
  if (list.current === undefined) return;
  if (key.return) panel.open({ kind: 'details', item: list.current });
  else if (input === action.key) action.act(list.current);
};

/** Keys type text, not commands, while an item's input is open or the list is being searched. */
export const catalogKeyOptions = <T, Input>(
  panel: ListDetails<T, Input>,
  list: SearchList<T>,
  active: boolean,
): { readonly isActive: boolean; readonly typing: boolean } => ({
  isActive: active,
  typing: panel.view.kind === 'input' || (panel.view.kind === 'list' && list.searching),
});
