/**
 * What a prompt's own tool would say about a file Promptyard loads: a construct the tool reads
 * differently from us ("… not supported yet" and what to do), or a complaint the tool itself makes.
 * `validate` shows each as a warning (native-inspection.ts).
 */
export interface ToolFinding {
  readonly message: string;
  readonly line?: number;
}

/** The 1-based line of the first occurrence of `needle` in `text`, from `from` (a character index) on. */
export const lineAt = (text: string, needle: string, from = 0): number | undefined => {
  const index = text.indexOf(needle, from);
  return index === -1 ? undefined : text.slice(0, index).split('\n').length;
};

/** A finding with its line when `needle` is found. */
export const findingAt = (text: string, needle: string, message: string): ToolFinding => {
  const line = lineAt(text, needle);
  return line === undefined ? { message } : { message, line };
};
