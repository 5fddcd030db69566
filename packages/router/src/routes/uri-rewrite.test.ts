import { describe, expect, it } from 'vitest';
import { decodeUri } from './names.js';
import { rewriteMeta, rewritePromptResult, rewriteReadResult, rewriteTool, rewriteToolResult, uriMapFor } from './uri-rewrite.js';

const map = uriMapFor('Everything');
if (map === undefined) throw new Error('a prefixed server has a map');

describe('uriMapFor', () => {
  it('maps to the namespaced form decodeUri reads back, ui:// and scheme-less URIs included', () => {
    for (const uri of ['demo://resource/dynamic/text/1', 'ui://get-time/mcp-app.html', 'notes/today.md', 'file:///a b?c#d']) {
      expect(decodeUri(map(uri), ['Everything'])).toEqual({ prefix: 'Everything', uri });
    }
    expect(map('ui://get-time/mcp-app.html')).toBe('everything+ui://get-time/mcp-app.html');
  });

  it('has no map for a pass-through server: its results stay as they are', () => {
    const result = { content: [{ type: 'resource_link', uri: 'demo://x', name: 'x' }] };
    expect(uriMapFor(false)).toBeUndefined();
    expect(rewriteToolResult(result, uriMapFor(false))).toBe(result);
  });
});

describe('rewriteToolResult', () => {
  it('maps resource links and embedded resources and leaves every other block and field alone', () => {
    const result = {
      content: [
        { type: 'text', text: 'see demo://resource/dynamic/text/2' },
        { type: 'resource_link', uri: 'demo://resource/dynamic/text/2', name: 'Text Resource 2', mimeType: 'text/plain' },
        {
          type: 'resource',
          resource: { uri: 'demo://resource/dynamic/blob/1', mimeType: 'application/octet-stream', blob: 'AAE=' },
          annotations: { priority: 1 },
        },
        { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      ],
      structuredContent: { uri: 'demo://untouched' },
      isError: false,
    };
    expect(rewriteToolResult(result, map)).toEqual({
      content: [
        { type: 'text', text: 'see demo://resource/dynamic/text/2' },
        { type: 'resource_link', uri: 'everything+demo://resource/dynamic/text/2', name: 'Text Resource 2', mimeType: 'text/plain' },
        {
          type: 'resource',
          resource: { uri: 'everything+demo://resource/dynamic/blob/1', mimeType: 'application/octet-stream', blob: 'AAE=' },
          annotations: { priority: 1 },
        },
        { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      ],
      structuredContent: { uri: 'demo://untouched' },
      isError: false,
    });
    // The backend's object is not changed.
    expect(result.content[1]).toMatchObject({ uri: 'demo://resource/dynamic/text/2' });
  });

  it('returns the very same object when nothing names a resource (the relay hot path)', () => {
    const result = { content: [{ type: 'text', text: 'hello' }], _meta: { 'io.example/trace': 'x' } };
    expect(rewriteToolResult(result, map)).toBe(result);
    expect(rewriteToolResult({ content: [] }, map)).toEqual({ content: [] });
  });

  it('maps the MCP Apps UI resource of a result in both spellings', () => {
    const result = {
      content: [],
      _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html', visibility: ['app'] }, 'ui/resourceUri': 'ui://get-time/mcp-app.html' },
    };
    expect(rewriteToolResult(result, map)._meta).toEqual({
      ui: { resourceUri: 'everything+ui://get-time/mcp-app.html', visibility: ['app'] },
      'ui/resourceUri': 'everything+ui://get-time/mcp-app.html',
    });
  });

  it('leaves malformed results as they came (the client validates them)', () => {
    for (const odd of [
      null,
      'text',
      { content: 'x' },
      { content: [null, 3, { type: 'resource' }, { type: 'resource_link', uri: 7 }] },
      { _meta: [] },
    ]) {
      expect(rewriteToolResult(odd, map)).toEqual(odd);
    }
  });
});

describe('rewriteTool', () => {
  it('maps `_meta.ui.resourceUri` and the older `_meta["ui/resourceUri"]`, alone or together', () => {
    const nested = {
      name: 'basic_get-time',
      inputSchema: { type: 'object' },
      _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } },
    };
    expect(rewriteTool(nested, map)._meta).toEqual({ ui: { resourceUri: 'everything+ui://get-time/mcp-app.html' } });
    expect(rewriteMeta({ 'ui/resourceUri': 'ui://a' }, map)).toEqual({ 'ui/resourceUri': 'everything+ui://a' });
    const plain = { name: 'echo', inputSchema: { type: 'object' } };
    expect(rewriteTool(plain, map)).toBe(plain);
    expect(rewriteTool(nested, undefined)).toBe(nested);
  });
});

describe('rewritePromptResult', () => {
  it('maps embedded resources and links in messages, whether content is one block or a list', () => {
    const result = {
      description: 'd',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Please analyze the following resource:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://resource/dynamic/text/1', text: 'Resource 1' } } },
        { role: 'assistant', content: [{ type: 'resource_link', uri: 'memory://knowledge-graph', name: 'graph' }] },
      ],
    };
    const rewritten = rewritePromptResult(result, map);
    expect(rewritten.messages.map((message) => message.content)).toEqual([
      { type: 'text', text: 'Please analyze the following resource:' },
      { type: 'resource', resource: { uri: 'everything+demo://resource/dynamic/text/1', text: 'Resource 1' } },
      [{ type: 'resource_link', uri: 'everything+memory://knowledge-graph', name: 'graph' }],
    ]);
    const plain = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
    expect(rewritePromptResult(plain, map)).toBe(plain);
  });
});

describe('rewriteReadResult', () => {
  it('maps each content’s URI', () => {
    const result = {
      contents: [
        { uri: 'ui://get-time/mcp-app.html', mimeType: 'text/html;profile=mcp-app', text: '<html>' },
        { uri: 'notes/a', blob: 'AA==' },
      ],
    };
    expect(rewriteReadResult(result, map)).toEqual({
      contents: [
        { uri: 'everything+ui://get-time/mcp-app.html', mimeType: 'text/html;profile=mcp-app', text: '<html>' },
        { uri: 'everything+:notes/a', blob: 'AA==' },
      ],
    });
    expect(rewriteReadResult(result, undefined)).toBe(result);
  });
});
