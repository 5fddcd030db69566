import type { Identity } from '@promptyard/core';
import type { ListAnswer, ListPage } from '../handlers.js';
import type { Adapter, Instance } from './adapter.js';
import { asResult, callerOf, governed, listed, multiRound } from './adapter.js';
import type { ServedSkills } from './skills.js';

// Skills' `SKILL.md` files close the resources list: they follow the last page of the other resources.
const withSkills = async (answer: ListAnswer, served: ServedSkills): Promise<ListPage> => {
  const listedPage = answer instanceof Promise ? await answer : answer;
  return listedPage.nextCursor !== undefined ? listedPage : { items: [...listedPage.items, ...(await served.resources())] };
};

/** A page of `resources/list`: the handlers' resources, then the skills'. */
export const listResources = (adapter: Adapter, cursor: string | undefined, caller: Identity | undefined): ListAnswer => {
  const answer = adapter.handlers.resources?.list(cursor, caller) ?? { items: [] };
  return adapter.skills === undefined ? answer : withSkills(answer, adapter.skills);
};

/** `resources/list`, `resources/templates/list` and `resources/read` (skill files included), and the skills extension's methods. */
export const registerResources = (adapter: Adapter, instance: Instance): void => {
  const { sdk, skills, guard, failed } = adapter;
  const { resources } = adapter.handlers;
  const { server } = instance;
  server.setRequestHandler('resources/list', (request, ctx) =>
    listed(adapter, 'resources', () => listResources(adapter, request.params?.cursor, callerOf(ctx)), failed['resources/list'], ctx),
  );
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    listed(
      adapter,
      'resourceTemplates',
      () => resources?.templates(request.params?.cursor, callerOf(ctx)) ?? { items: [] },
      failed['resources/templates/list'],
      ctx,
    ),
  );
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const kind = skills?.owns(uri) === true ? 'skill' : 'resource';
    const caller = governed(adapter, ctx);
    try {
      guard?.check(kind, uri, caller);
      if (skills?.owns(uri) === true) return asResult(await skills.read(uri, ctx));
      if (resources === undefined) throw new sdk.ResourceNotFoundError(uri);
      return asResult(await multiRound(adapter, instance, ctx, `resources/read "${uri}"`, (context) => resources.read(uri, context)));
    } catch (error) {
      return failed['resources/read'](guard === undefined ? error : guard.conceal(error, kind, uri, caller));
    }
  });
  skills?.attach(server, guard === undefined ? undefined : { guard, callerOf });
};
