import { useInput } from 'ink';
import type { Key } from 'ink';
import type { ReactNode, RefObject } from 'react';
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';

export type KeyHandler = (input: string, key: Key) => void;

interface Target {
  readonly handler: KeyHandler;
  readonly typing: boolean;
}

const Slot = createContext<RefObject<Target | undefined> | undefined>(undefined);

const plain: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

// eslint-disable-next-line no-control-regex
const control = /[\u0000-\u001f\u007f]/;

/** The key a single character stands for when it arrives inside a longer chunk. */
const keyOf = (char: string): [string, Key] => {
  if (char === '\r' || char === '\n') return ['', { ...plain, return: true }];
  if (char === '\t') return ['', { ...plain, tab: true }];
  if (char === '\u007f' || char === '\b') return ['', { ...plain, backspace: true }];
  return [char, { ...plain, shift: /^[A-Z]$/.test(char) }];
};

/** Input waiting for its turn: a key ink parsed (an escape sequence, a control key), or one character of a longer chunk. */
type Pending = { readonly key: [string, Key] } | { readonly char: string };

const isChar = (item: Pending | undefined): item is { readonly char: string } => item !== undefined && 'char' in item;

/** The next input from the queue: one key, or while typing a run of plain text. */
const take = (queue: Pending[], typing: boolean): [string, Key] => {
  const first = queue.shift();
  if (first === undefined) return ['', plain];
  if (!isChar(first)) return first.key;
  if (!typing || control.test(first.char)) return keyOf(first.char);
  let text = first.char;
  while (isChar(queue[0]) && !control.test(queue[0].char)) text += (queue.shift() as { char: string }).char;
  return [text, plain];
};

export interface KeyRootProps {
  /** Keys that work everywhere except in an input (q, 1–5, tab); true when the key was used. */
  readonly global?: (input: string, key: Key) => boolean;
  readonly children: ReactNode;
}

/**
 * The one reader of the keyboard: a key goes to `global`, else to the active panel's handler
 * (`useKeys`). Keys that arrive faster than a frame (arrows held down or sent in one read, a paste,
 * a script's send-keys) are queued and taken one at a time, each after the previous one's render,
 * so a handler never acts on the state of a key before: three ↓ in one read move three rows, and
 * "/q" opens the search and types q into it rather than quitting. While an input has the keyboard,
 * runs of plain text stay whole.
 */
export const KeyRoot = ({ global, children }: KeyRootProps): ReactNode => {
  const slot = useRef<Target | undefined>(undefined);
  const queue = useRef<Pending[]>([]);
  /** A key was dispatched and its render has not happened yet. */
  const waiting = useRef(false);
  const [, setTurn] = useState(0);
  const next = (): void => {
    if (waiting.current || queue.current.length === 0) return;
    const [input, key] = take(queue.current, slot.current?.typing === true);
    waiting.current = true;
    setTurn((turn) => turn + 1);
    const target = slot.current;
    if (target?.typing !== true && global?.(input, key) === true) return;
    target?.handler(input, key);
  };
  useInput((input, key) => {
    const chars = [...input];
    // ink hands over one escape sequence or control key at a time; a longer chunk of text is split here.
    if (chars.length < 2 || key.ctrl || key.meta || input.startsWith('\u001B')) queue.current.push({ key: [input, key] });
    else queue.current.push(...chars.map((char) => ({ char })));
    next();
  });
  useEffect(() => {
    waiting.current = false;
    next();
  });
  return <Slot.Provider value={slot}>{children}</Slot.Provider>;
};

export interface KeysOptions {
  readonly isActive: boolean;
  /** An input has the keyboard: the global keys are off and typed text arrives whole. */
  readonly typing?: boolean;
}

/** Makes `handler` the target of the keys while `isActive`. */
export const useKeys = (handler: KeyHandler, { isActive, typing = false }: KeysOptions): void => {
  const slot = useContext(Slot);
  if (slot === undefined) throw new Error('useKeys needs a <KeyRoot> above it');
  useLayoutEffect(() => {
    if (isActive) slot.current = { handler, typing };
  });
};
