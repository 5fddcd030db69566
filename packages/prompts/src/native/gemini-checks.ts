import { parse as parseToml } from 'smol-toml';
import type { NativeFileInput } from './native-definition.js';
import { findingAt, type ToolFinding } from './tool-findings.js';

/**
 * What Gemini CLI (google-gemini/gemini-cli 5411f113, `FileCommandLoader`) does with a command file
 * that Promptyard does not do the same way, for `validate`: its schema takes `description` only as
 * a string (it skips any other file), and its `AtFileProcessor` inlines `@{path}` into the text.
 */
export const checkGeminiFile = (input: NativeFileInput): ToolFinding[] => {
  const data = parseToml(input.text) as Record<string, unknown>;
  const findings: ToolFinding[] = [];
  if (Object.hasOwn(data, 'description') && typeof data['description'] !== 'string') {
    findings.push(
      findingAt(
        input.text,
        'description',
        'Gemini CLI skips this command file: its "description" must be a string; Promptyard serves the command without a description — quote the value',
      ),
    );
  }
  const prompt = typeof data['prompt'] === 'string' ? data['prompt'] : '';
  for (const reference of new Set(prompt.match(/@\{[^}\n]+\}/g) ?? [])) {
    findings.push(
      findingAt(
        input.text,
        reference,
        `${reference}, whose file Gemini CLI inlines into the prompt text, is embedded as a resource after the text: inlining is not supported yet; keep the reference where the file's place in the text does not matter`,
      ),
    );
  }
  return findings;
};
