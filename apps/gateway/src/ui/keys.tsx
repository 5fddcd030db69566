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

/** The next input from queued characters: one key, or while typing a run of plain text. */
const take = (queue: string[], typing: boolean): [string, Key] => {
  if (!typing || control.test(queue[0] ?? '')) return keyOf(queue.shift() ?? '');
  const end = queue.findIndex((char) => control.test(char));
  return [queue.splice(0, end === -1 ? queue.length : end).join(''), plain];
};

export interface KeyRootProps {
  /** Keys that work everywhere except in an input (q, 1–5, tab); true when the key was used. */
  readonly global?: (input: string, key: Key) => boolean;
  readonly children: ReactNode;
}

/**
 * The one reader of the keyboard: a key goes to `global`, else to the active panel's handler
 * (`useKeys`). Keys typed faster than a frame (a paste, a script's send-keys) are taken one at a
 * time, each after the previous one's render, so "/q" opens the search and types q into it rather
 * than quitting; while an input has the keyboard, runs of plain text stay whole.
 */
export const KeyRoot = ({ global, children }: KeyRootProps): ReactNode => {
  const slot = useRef<Target | undefined>(undefined);
  const queue = useRef<string[]>([]);
  const [, setTurn] = useState(0);
  const dispatch = ([input, key]: [string, Key]): void => {
    const target = slot.current;
    if (target?.typing !== true && global?.(input, key) === true) return;
    target?.handler(input, key);
  };
  useInput((input, key) => {
    const chars = [...input];
    if (chars.length < 2 || key.ctrl || key.meta || input.startsWith('\u001B')) {
      dispatch([input, key]);
      return;
    }
    queue.current.push(...chars);
    dispatch(take(queue.current, slot.current?.typing === true));
    setTurn((turn) => turn + 1);
  });
  useEffect(() => {
    if (queue.current.length === 0) return;
    dispatch(take(queue.current, slot.current?.typing === true));
    setTurn((turn) => turn + 1);
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
