/**
 * `[console]` on a running gateway: the console mounted on the HTTP endpoint, reading the router
 * through the terminal UI's model, signing in as the endpoint authenticates. Loaded only when
 * `[console] enabled = true`, so a gateway without it never reads the console's code or files.
 */
import type { Authenticator, Logger } from '@promptyard/core';
import type { HttpMount } from '@promptyard/mcp';
import type { PinBook, PinLocation, Router } from '@promptyard/router';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { ConsoleConfig } from '../config/console.js';
import { createUiModel } from '../ui/model.js';
import type { ActivityFeed } from './activity-feed.js';
import { createChangeDesk } from './change-desk.js';
import { createConsole } from './console.js';
import { createSignIn } from './sign-in.js';

export interface MountedConsole {
  readonly mount: HttpMount;
  /** Stops following the router. */
  close(): void;
}

export const mountConsole = (options: {
  readonly router: Router;
  readonly pins: PinBook | undefined;
  /** Where the pins are kept: the Changes page approves there, as `pins approve` does. */
  readonly pinLocation: PinLocation | undefined;
  /** The audit stream the gateway records through (the Activity page's). */
  readonly activity: ActivityFeed | undefined;
  readonly config: GatewayConfig & { readonly console: ConsoleConfig };
  readonly authenticator: Authenticator | undefined;
  /** The endpoint's URL once it is bound (the OAuth resource). */
  readonly resource: () => string;
  readonly logger: Logger;
}): MountedConsole => {
  const { router, pins, pinLocation, activity, config, authenticator, resource, logger } = options;
  const model = createUiModel(router, { pins });
  const changes =
    activity === undefined
      ? undefined
      : createChangeDesk({
          pins,
          location: pinLocation,
          quarantined: () => model.quarantined(),
          trail: activity.trail,
          logger: logger.child('pins'),
        });
  const mount = createConsole({
    model,
    signIn: createSignIn({ authToken: config.transport.authToken, authenticator, resource, admins: config.console.admins }),
    sessionMs: config.console.sessionMs,
    secure: config.transport.publicUrl?.startsWith('https:') === true,
    logger: logger.child('console'),
    changes,
    activity,
  });
  return { mount, close: () => model.close() };
};
