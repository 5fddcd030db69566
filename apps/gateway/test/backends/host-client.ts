import type { Client } from '@modelcontextprotocol/client';

/** The client capabilities of a host that answers sampling, elicitation and roots. */
export const hostCapabilities = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

export const defaultRoots = [
  { uri: 'file:///work/one', name: 'one' },
  { uri: 'file:///work/two', name: 'two' },
];

/**
 * Answers like a host would: sampling echoes the first message (`echo of <text>`), elicitation
 * accepts with `{ name: 'Ada' }` unless the message says "decline", roots are `roots()`.
 */
export const answerLikeAHost = (client: Client, roots: () => readonly { uri: string; name: string }[]): void => {
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
    return { role: 'assistant', model: 'fake-model', content: { type: 'text', text: `echo of ${prompt}` } };
  });
  client.setRequestHandler('elicitation/create', async (request) => {
    if (request.params.message.includes('decline')) return { action: 'decline' };
    return { action: 'accept', content: { name: 'Ada' } };
  });
  client.setRequestHandler('roots/list', async () => ({ roots: [...roots()] }));
};
