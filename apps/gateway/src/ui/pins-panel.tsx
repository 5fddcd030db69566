import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { PinChange } from '@promptyard/router';
import { ItemFrame, ListView, PanelFrame, Row } from './components.js';
import { clip, wrapText } from './format.js';
import type { PanelProps } from './panel.js';
import { useSelection } from './selection.js';
import { useListDetails } from './use-list-details.js';
import { useKeys } from './keys.js';
import { useLiveModel } from './live.js';

/**
 * The Pins panel: the tools and prompts this surface holds back under `pinning = "enforce"` because
 * their definition changed since it was approved (or appeared on a server already pinned), and for
 * one, the message a refused call gets and the diff of the approved definition against the one seen.
 */

const pinsHelp = '↑↓ select  enter diff  tab panels  q quit';
const diffHelp = '↑↓ scroll  esc back  q quit';

const heldBack = (change: PinChange): string => `${change.server}/${change.name}`;

/** What a quarantined definition's details show: how to approve it, then what changed. */
const changeDetails = (change: PinChange, diff: string | undefined, width: number): string[] => [
  ...wrapText(change.message, width),
  '',
  ...(diff === undefined
    ? wrapText('The pins no longer hold a pending definition for it: it was approved or reset meanwhile.', width)
    : wrapText(diff, width)),
];

/** Every quarantined definition of this surface; enter shows its diff. */
export const PinsPanel = ({ model, active, width, height }: PanelProps): ReactNode => {
  useLiveModel(model);
  const quarantined = model.quarantined();
  const selection = useSelection(quarantined.length);
  const panel = useListDetails<PinChange>({ height, details: true });
  const { view, scroll, bodyHeight } = panel;
  const text = view.kind === 'list' ? [] : changeDetails(view.item, model.pinDiff(view.item), width);

  useKeys(
    (input, key) => {
      if (view.kind !== 'list') {
        panel.browse(input, key, text.length);
        return;
      }
      const change = quarantined[selection.current];
      if (selection.handle(key) || change === undefined) return;
      if (key.return) panel.open({ kind: 'details', item: change });
    },
    { isActive: active },
  );

  if (view.kind !== 'list')
    return (
      <ItemFrame
        title={`${heldBack(view.item)} (${view.item.kind}, ${view.item.change}) — quarantined`}
        help={diffHelp}
        height={height}
        bodyHeight={bodyHeight}
        width={width}
        lines={text}
        offset={scroll.offset}
        isError={false}
      />
    );
  const nameWidth = Math.min(Math.max(12, ...quarantined.map((change) => heldBack(change).length)), Math.floor(width / 2));
  return (
    <PanelFrame height={height} help={pinsHelp} width={width}>
      <Row
        text={`${quarantined.length} quarantined: held back until \`promptyard-gateway pins approve\``}
        width={width}
        color={quarantined.length === 0 ? undefined : 'yellow'}
      />
      <ListView
        items={quarantined}
        selected={selection.current}
        height={Math.max(1, height - 2)}
        width={width}
        empty="(nothing quarantined: every definition served is the approved one)"
        row={(change, room, isSelected) => (
          <Text wrap="truncate-end" inverse={isSelected}>
            {clip(heldBack(change), nameWidth).padEnd(nameWidth)}
            {'  '}
            {clip(`${change.kind.padEnd(6)}  ${change.change.padEnd(7)}  ${change.fields.join(', ')}`, Math.max(0, room - nameWidth - 2))}
          </Text>
        )}
      />
    </PanelFrame>
  );
};
