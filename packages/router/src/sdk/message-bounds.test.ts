import { describe, expect, it } from 'vitest';
import { answeredRequest, idAtEnd, messageStart, methodOf, oversizedResponse } from './message-bounds.js';

const bytes = (text: string): Uint8Array => Buffer.from(text);
const bounds = { server: 'big', maxBytes: 1024, oversized: () => {} };

describe('the first bytes of a message over the limit', () => {
  it('show the request a response answers when its id comes before the payload', () => {
    expect(answeredRequest(bytes('{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a'))).toBe(7);
    expect(answeredRequest(bytes(' { "jsonrpc" : "2.0" , "id" : "relay-3" , "error" : { "code": -1, "message": "x'))).toBe('relay-3');
    // Strings holding braces, quotes and an "id" of their own are skipped whole.
    expect(answeredRequest(bytes('{"result":{"text":"} ,\\"id\\":1, {"},"id":2,"jsonrpc":"2.0"}'))).toBe(2);
  });

  it('show nothing for requests, notifications, nested ids and ids after the payload', () => {
    expect(answeredRequest(bytes('{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":['))).toBeUndefined();
    expect(answeredRequest(bytes('{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":3,"x":"'))).toBeUndefined();
    expect(answeredRequest(bytes('{"result":{"content":[{"id":5,"text":"aaaa'))).toBeUndefined();
    expect(messageStart(bytes('{"result":{"content":[{"id":5,"text":"aaaa'))).toEqual({ answers: undefined, response: true });
    expect(messageStart(bytes('{"jsonrpc":"2.0","method":"notifications/message","params":{'))).toEqual({
      answers: undefined,
      response: false,
    });
  });

  it('name the method of a request', () => {
    expect(methodOf(bytes('{"method":"subscriptions/listen","params":{},"jsonrpc":"2.0","id":2}'))).toBe('subscriptions/listen');
    expect(methodOf(bytes('{"jsonrpc":"2.0","id":2,"result":{"method":"x"}}'))).toBeUndefined();
  });
});

describe('the last bytes of a message over the limit', () => {
  it('show the id a response ends with (as the TypeScript SDK writes it)', () => {
    expect(idAtEnd(bytes('aaaa"}]},"jsonrpc":"2.0","id":12}'))).toBe(12);
    expect(idAtEnd(bytes('aaaa"}]},"jsonrpc":"2.0","id":"relay-9"}\r'))).toBe('relay-9');
  });

  it('show nothing for an id of a nested object or inside a string', () => {
    expect(idAtEnd(bytes('"content":[{"id":5}]}}'))).toBeUndefined();
    expect(idAtEnd(bytes('"text":"\\"id\\":5}"}'))).toBeUndefined();
    expect(idAtEnd(bytes('"jsonrpc":"2.0"}'))).toBeUndefined();
  });
});

describe('the error for a message over the limit', () => {
  it('names the server and the limit', () => {
    expect(oversizedResponse(3, bounds)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32603,
        message: expect.stringMatching(/^Server "big" sent a message of more than 1024 bytes, over \[limits\] max_message_bytes \(1024\)/),
        data: { server: 'big', maxMessageBytes: 1024 },
      },
    });
  });
});
