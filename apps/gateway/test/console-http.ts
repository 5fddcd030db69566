/**
 * The console over plain HTTP, without a browser: sign in through the token form (its CSRF cookie and
 * field, as a browser would send them) and read a page with the session's cookie.
 */
export const sessionCookieName = 'promptyard_console';

/** Signs in with `token` through the form at `origin`; returns the session cookie's value. */
export const signInOverHttp = async (origin: string, token: string): Promise<string> => {
  const form = await fetch(`${origin}/console/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  const loginCookie = (form.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const answer = await fetch(`${origin}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
    body: new URLSearchParams({ _csrf: csrf ?? '', token }).toString(),
  });
  const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${sessionCookieName}=`));
  if (answer.status !== 303 || session === undefined)
    throw new Error(`console sign-in at ${origin} failed: ${answer.status} ${await answer.text()}`);
  return (session.split(';')[0] ?? '').slice(sessionCookieName.length + 1);
};

/** A console page (`/console/servers` …) as the signed-in session reads it. */
export const consolePage = (origin: string, session: string, path: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${origin}${path}`, { redirect: 'manual', headers: { cookie: `${sessionCookieName}=${session}`, ...headers } });
