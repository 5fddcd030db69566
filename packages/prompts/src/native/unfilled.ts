/**
 * Placeholders a format uses that nothing fills over MCP (`${editorThing}`, Continue's
 * `{{{ currentFile }}}`): `validate` warns about them. Fenced code is skipped, where `${x}` is
 * usually a template literal of the code sample, not a placeholder.
 */

/** The lines of `text`, with those inside fenced code blocks blanked so that line numbers hold. */
const proseLines = (text: string): string[] => {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
      return '';
    }
    if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    return '';
  });
};

/** Each placeholder `pattern` (global) finds outside code that `fills` does not accept, once, in order. */
export const findUnfilled = (body: string, pattern: RegExp, fills: (placeholder: string) => boolean): string[] => {
  const found: string[] = [];
  for (const line of proseLines(body)) {
    for (const match of line.matchAll(pattern)) if (!fills(match[0]) && !found.includes(match[0])) found.push(match[0]);
  }
  return found;
};

/** The 1-based line of the first mention of `placeholder` outside code in `text`. */
export const placeholderLine = (text: string, placeholder: string): number | undefined => {
  const index = proseLines(text).findIndex((line) => line.includes(placeholder));
  return index === -1 ? undefined : index + 1;
};
