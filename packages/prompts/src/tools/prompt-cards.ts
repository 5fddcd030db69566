import type { PromptEntry, RenderedPrompt } from '@promptyard/core';

/** One line per prompt a model can scan: `name(arg, opt?) — description`. */
export const promptCard = (entry: PromptEntry): string => {
  const args = entry.arguments.map((argument) => (argument.required ? argument.name : `${argument.name}?`)).join(', ');
  return `${entry.name}(${args}) — ${entry.description.replace(/\s+/g, ' ').trim()}`;
};

/** A rendered prompt as one text for a tool result: messages in order, each under its role. */
export const renderedText = (rendered: RenderedPrompt): string =>
  rendered.messages
    .map((message) => {
      const { content } = message;
      const body =
        content.type === 'text'
          ? content.text
          : content.type === 'image'
            ? `[image ${content.mimeType}, ${content.data.length} base64 characters]`
            : 'text' in content.resource
              ? `[resource ${content.resource.uri}]\n${content.resource.text}`
              : `[resource ${content.resource.uri}, binary]`;
      return rendered.messages.length === 1 ? body : `[${message.role}]\n${body}`;
    })
    .join('\n\n');
