import { describe, expect, it } from 'vitest';
import { jsonErrorLine, locateJsonPath, stripJsonComments } from './jsonc.js';

describe('stripJsonComments', () => {
  it('blanks comments and trailing commas outside strings, keeping offsets', () => {
    const text = '{\n  // note\n  "a": "x // y /* z */", /* c */\n  "b": [1, 2,],\n  "c": "\\"quoted, \\"",\n}';
    const stripped = stripJsonComments(text);
    expect(stripped).toHaveLength(text.length);
    expect(stripped.split('\n')).toHaveLength(text.split('\n').length);
    expect(JSON.parse(stripped)).toEqual({ a: 'x // y /* z */', b: [1, 2], c: '"quoted, "' });
  });

  it('handles a comment running to the end of the text', () => {
    expect(JSON.parse(stripJsonComments('{"a": 1} // end'))).toEqual({ a: 1 });
    expect(JSON.parse(stripJsonComments('{"a": 1} /* open'))).toEqual({ a: 1 });
  });
});

describe('locating JSON', () => {
  const text = '{\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    },\n    "b": {\n      "command": "y"\n    }\n  }\n}';
  it('finds the line of a key path, falling back to the deepest key found', () => {
    expect(locateJsonPath(text, ['mcpServers', 'b', 'command'])).toBe(7);
    expect(locateJsonPath(text, ['mcpServers', 'a', 'command'])).toBe(4);
    expect(locateJsonPath(text, ['mcpServers', 'b', 'url'])).toBe(6);
    expect(locateJsonPath(text, ['servers'])).toBe(0);
  });

  it('turns a parse error position into a line', () => {
    const bad = '{\n  "a": 1,\n  oops\n}';
    let error: Error | undefined;
    try {
      JSON.parse(bad);
    } catch (caught) {
      error = caught as Error;
    }
    expect(jsonErrorLine(bad, error as Error)).toBe(3);
    expect(jsonErrorLine(bad, new Error('no position'))).toBe(0);
  });
});
