import { describe, expect, it } from 'vitest';
import { html, raw } from './template.js';
import type { HtmlValue } from './template.js';

const markup = `<img src=x onerror=alert(1)>"'&`;
const escaped = '&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;';

describe('the html template', () => {
  it('escapes every interpolated text, in content and in attributes', () => {
    expect(String(html`<p title="${markup}">${markup}</p>`)).toBe(`<p title="${escaped}">${escaped}</p>`);
  });

  it('writes its own literal parts and numbers as they are', () => {
    expect(String(html`<td class="number">${42}</td><td>${-1.5}</td>`)).toBe('<td class="number">42</td><td>-1.5</td>');
  });

  it('writes a fragment it made, or one raw() made, unescaped, and escapes what is inside the fragment once', () => {
    const inner = html`<b>${markup}</b>`;
    expect(String(html`<p>${inner}</p>`)).toBe(`<p><b>${escaped}</b></p>`);
    expect(String(html`<p>${raw('<br>')}</p>`)).toBe('<p><br></p>');
  });

  it('renders nothing for null, undefined and false', () => {
    const nothing: HtmlValue[] = [null, undefined, false];
    expect(String(html`<p>${nothing[0]}${nothing[1]}${nothing[2]}</p>`)).toBe('<p></p>');
    const admin = false;
    expect(String(html`<p${admin && html` class="admin"`}>`)).toBe('<p>');
  });

  it('joins arrays of values, escaping their texts and keeping their fragments, nested too', () => {
    const rows = ['a<', 'b&'].map((text) => html`<li>${text}</li>`);
    expect(String(html`<ul>${rows}</ul>`)).toBe('<ul><li>a&lt;</li><li>b&amp;</li></ul>');
    expect(String(html`${['<', [html`<i>`, null, 1]]}`)).toBe('&lt;<i>1');
  });

  it('takes no object for HTML but its own: a look-alike is refused by the types and escaped at run time', () => {
    const lookAlike = { toString: () => '<script>' };
    // @ts-expect-error -- only a fragment of the template (or raw()) is HTML.
    expect(String(html`${lookAlike}`)).not.toContain('<script>');
  });
});
