/** Types of tmux.mjs: a terminal program driven in a real pseudo-terminal through tmux. */

export interface TmuxOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly width?: number;
  readonly height?: number;
  /** Environment of tmux and the program (default: the caller's, without the CI variables that change how Ink draws). */
  readonly env?: Readonly<Record<string, string>>;
}

export type ScreenMatch = RegExp | ((screen: string) => boolean);

/** A key name tmux knows (Escape, Enter, Tab, Up, C-c, q …) or literal text. */
export type Key = string | { readonly text: string };

export interface ProgramStatus {
  readonly exited: boolean;
  /** The exit status is known (tmux may mark the pane dead a moment before). */
  readonly settled: boolean;
  /** Exit status once settled (a signal shows as 128+n; null when unknown). */
  readonly code: number | null;
}

export interface TmuxSession {
  readonly socket: string;
  /** The visible screen. */
  capture(): Promise<string>;
  /** Scrollback and screen, for failure messages. */
  captureAll(): Promise<string>;
  /** The pane's sh, whose child is the program. */
  panePid(): Promise<number>;
  status(): Promise<ProgramStatus>;
  waitForScreen(match: ScreenMatch, timeoutMs?: number, what?: string): Promise<string>;
  press(...keys: readonly Key[]): Promise<void>;
  type(text: string): Promise<void>;
  waitForExit(timeoutMs?: number): Promise<number | null>;
  /** Kills this session's tmux server and removes its socket folder; safe to call twice. */
  close(): Promise<void>;
}

export declare const tmuxVersion: () => Promise<string>;
export declare const startTmux: (options: TmuxOptions) => Promise<TmuxSession>;
export declare const frame: (screen: string) => string;
