import type { NativeFileInput } from './native-definition.js';
import type { ToolFinding } from './tool-findings.js';

/**
 * What Codex (openai/codex `codex-rs/core/src/custom_prompts.rs` at 035a9419) does with a prompt
 * file that Promptyard does not do the same way, for `validate`. Codex lists only the `.md` files
 * directly in its prompts folder, and reads frontmatter as `key: value` lines rather than YAML.
 */
export const checkCodexFile = (input: NativeFileInput): ToolFinding[] =>
  input.path.includes('/')
    ? [
        {
          message:
            'Codex does not read prompts in subfolders of its prompts folder, so it offers no /prompts command for this file; Promptyard serves it — move it up a level to have both',
        },
      ]
    : [];

/** Added to the reason Promptyard refuses a Codex file for its frontmatter: Codex itself would load it. */
export const codexRefusalNote = (reason: string): string | undefined =>
  /frontmatter/.test(reason)
    ? 'Codex would load this file, reading its frontmatter as key: value lines: that reading is not supported yet; quote the value, or close the frontmatter with a --- line'
    : undefined;
