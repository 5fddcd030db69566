/**
 * Prompty's `kind: thread` inputs, spliced as its pipeline splices them (microsoft/prompty
 * runtime/typescript/packages/core/src/renderers/common.ts `prepareRenderInputs` and
 * core/pipeline.ts `expandThreads` at 75e4d0e5): the template renders a marker in the thread's place,
 * and the message holding the marker is split around it, the thread's messages in between.
 */
import { randomBytes } from 'node:crypto';
import { isRecord } from '../formats/value-shape.js';
import type { RenderedPart } from './native-definition.js';

/** Each thread input's marker, `__PROMPTY_THREAD_<8 hex>_<name>__` as Prompty writes it, by input name. */
export const threadMarkers = (names: readonly string[]): ReadonlyMap<string, string> =>
  new Map(names.map((name) => [name, `__PROMPTY_THREAD_${randomBytes(4).toString('hex')}_${name}__`]));

/** A thread message's text parts, as `dictToMessage` reads `content` (a string, or a list of strings and `{ type: 'text' }` parts). */
const textsOf = (content: unknown): string[] => {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((item): string[] => {
    if (typeof item === 'string') return [item];
    if (!isRecord(item) || (item['type'] ?? item['kind'] ?? 'text') !== 'text') return [];
    const text = item['text'] ?? item['value'] ?? '';
    return typeof text === 'string' ? [text] : [];
  });
};

/** The thread's messages (a JSON list of `{ role, content }`); anything else is no messages, as in Prompty. */
const threadParts = (value: string | undefined): RenderedPart[] => {
  let messages: unknown;
  try {
    messages = JSON.parse(value ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    if (!isRecord(message)) return [];
    const role = message['role'] === 'assistant' ? 'assistant' : 'user';
    return textsOf(message['content']).map((text) => ({ role, text }));
  });
};

/** The parts with each message holding a marker split around it, the thread's messages in between. */
export const expandThreads = (
  parts: readonly RenderedPart[],
  markers: ReadonlyMap<string, string>,
  args: Readonly<Record<string, string>>,
): RenderedPart[] =>
  parts.flatMap((part) => {
    // As expandThreads does: the first marker found (in the inputs' order) splits the message.
    const found = [...markers].find(([, marker]) => part.text.includes(marker));
    if (found === undefined) return [part];
    const [name, marker] = found;
    const at = part.text.indexOf(marker);
    const before = part.text.slice(0, at).trim();
    const after = part.text.slice(at + marker.length).trim();
    return [
      ...(before === '' ? [] : [{ ...part, text: before }]),
      ...threadParts(args[name]),
      ...(after === '' ? [] : [{ ...part, text: after }]),
    ];
  });
