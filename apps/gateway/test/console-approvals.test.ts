/**
 * The console's Activity page lists the calls waiting for a person's approval, in a real browser
 * (Debian's Chromium, playwright-core) against the built gateway: an MCP client that declares
 * elicitation, and answers only when the test says so, calls a tool under `[[policy]] approve = true`;
 * the page shows the call waiting (who, profile, server, tool, rule; never the arguments) without a
 * reload, and drops it once the person answered, when its decision appears in the audit table.
 */
import axe from 'axe-core';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBrowser, openFromNavigation, seriousViolations, signIn, skipWithoutBrowser } from './console-browser.js';
import { cleanup, connectHttp, gatewayToml, startHttpGateway, stdioBackendCommand, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

const token = 'console-approvals-token';
const secret = 'an-argument-nobody-else-sees';

const approvalsToml = (): string =>
  gatewayToml(
    { alpha: { command: stdioBackendCommand({ name: 'alpha' }) } },
    {},
    [
      `[transport]\nauth_token = "${token}"`,
      `[[policy]]\nname = "a person approves echoes"\ntools = ["alpha_echo"]\napprove = true`,
      `[[policy]]\nname = "the rest"\ntools = ["*"]`,
      `[console]\nenabled = true`,
    ].join('\n\n'),
  );

type Answer = { action: 'accept'; content: { approve: boolean } };

/** A client whose person answers each question only when `answer` is called; `asked` resolves when a question arrives. */
const heldAnswers = (client: Client) => {
  const waiting: ((answer: Answer) => void)[] = [];
  let asked: () => void = () => {};
  const question = new Promise<void>((resolve) => (asked = resolve));
  client.setRequestHandler(
    'elicitation/create',
    () =>
      new Promise<Answer>((resolve) => {
        waiting.push(resolve);
        asked();
      }),
  );
  return { question, answer: (answer: Answer) => waiting.shift()?.(answer) };
};

describe.skipIf(skipWithoutBrowser('the console: calls waiting for approval on Activity'))(
  'the console: calls waiting for approval on Activity',
  () => {
    let gateway: HttpGateway;
    let client: Client;
    const { start, newPage, cspViolations, shot, close: closeBrowser } = consoleBrowser(720);

    beforeAll(async () => {
      gateway = await startHttpGateway({ config: approvalsToml() });
      client = await connectHttp(gateway.url, { token, client: { capabilities: { elicitation: { form: {} } } } });
      await start();
    });

    afterAll(async () => {
      await closeBrowser();
      await client?.close();
      await cleanup();
    });

    it('shows a call while its person is asked, never its arguments, and drops it once answered', async () => {
      const page = await newPage();
      await signIn(page, gateway.origin, token);
      await openFromNavigation(page, gateway.origin, 'Activity');
      const waiting = page.locator('#waiting');
      expect(await waiting.getByRole('status').textContent()).toBe("No call is waiting for a person's approval");

      const person = heldAnswers(client);
      const call = client.callTool({ name: 'alpha_echo', arguments: { text: secret } });
      await person.question;
      // Live, without a reload: the call waits for its person.
      const row = waiting.locator('tr[data-server="alpha"][data-tool="alpha_echo"]');
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('server-token');
      expect(text).toContain('default');
      expect(text).toContain('a person approves echoes');
      expect(await waiting.getByRole('status').textContent()).toBe("1 call is waiting for a person's approval");
      expect(await page.content()).not.toContain(secret);
      expect(await seriousViolations(page, axe.source)).toEqual([]);
      await page.screenshot({ path: shot('console-activity-waiting.png') });

      person.answer({ action: 'accept', content: { approve: true } });
      expect(textOf(await call)).toBe(secret);
      await row.waitFor({ state: 'detached' });
      expect(await waiting.getByRole('status').textContent()).toBe("No call is waiting for a person's approval");
      // Its decision, in the audit table below.
      await page.locator('#activity tr[data-decision="approved"][data-name="alpha_echo"]').waitFor();
      expect(cspViolations).toEqual([]);
    });
  },
);
