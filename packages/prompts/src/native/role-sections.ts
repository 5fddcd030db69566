export type SectionRole = 'system' | 'user' | 'assistant';

export interface RoleSection {
  readonly role: SectionRole;
  readonly text: string;
  /** Lines before this section's text in the body. */
  readonly lineOffset: number;
}

const roleLine = /^[ \t]*(system|user|assistant)[ \t]*:[ \t]*$/i;
const fence = /^[ \t]*(```|~~~)/;

/**
 * Prompty's role lines (`system:`, `user:`, `assistant:` alone on a line) split a body into messages.
 * Lines inside code fences never split; text before the first role line belongs to `system`, as in Prompty.
 */
export const splitRoleSections = (body: string, leadingRole: SectionRole = 'system'): RoleSection[] => {
  const lines = body.split('\n');
  const sections: RoleSection[] = [];
  let role: SectionRole = leadingRole;
  let start = 0;
  let inFence = false;
  const flush = (end: number): void => {
    const text = lines.slice(start, end).join('\n').trim();
    if (text !== '') sections.push({ role, text, lineOffset: start });
  };
  lines.forEach((line, index) => {
    if (fence.test(line)) inFence = !inFence;
    const match = inFence ? null : roleLine.exec(line);
    if (match === null) return;
    flush(index);
    role = (match[1] ?? 'user').toLowerCase() as SectionRole;
    start = index + 1;
  });
  flush(lines.length);
  return sections;
};
