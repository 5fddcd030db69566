import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@promptyard/core';
import type { ServerSdk } from '../sdk.js';
import { headerOf, sendJsonError } from './messages.js';

/**
 * DNS-rebinding protection: a request's Host header, then a browser's Origin, must name an accepted
 * host. A refusal is a 403 to the client; the operator is told once per refused name (not once per
 * request) which setting would accept it, since the client only sees `Invalid Host`.
 */

export interface HostCheck {
  /** Answers a request whose Host or Origin is not accepted with a 403; true when it did. */
  refuse(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Names remembered as already reported; past this many, one last warning says the rest go unreported. */
const remembered = 100;

/** The setting that accepts a name, for each header checked. */
const settingOf = {
  host: '[transport] allowed_hosts (or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS)',
  origin: '[transport] allowed_origins (or PROMPTYARD_TRANSPORT_ALLOWED_ORIGINS)',
} as const;

const headerName = { host: 'Host', origin: 'Origin' } as const;

interface Refusal {
  readonly header: keyof typeof settingOf;
  /** The name as the check compares it, when the header could be read. */
  readonly hostname: string | undefined;
  /** What the client is answered. */
  readonly message: string;
}

/** The warning for a first refusal of a name: what was refused and how to accept it. */
const warningOf = ({ header, hostname, message }: Refusal, accepted: readonly string[]): string =>
  hostname === undefined
    ? `refused a request: ${message} (403); accepted ${header} names are set by ${settingOf[header]}`
    : `refused a request for ${headerName[header]} "${hostname}" (403 Invalid ${headerName[header]}): if clients reach this endpoint by that name, add "${hostname}" to ${settingOf[header]}; accepted now: ${accepted.join(', ')}. Further refusals of this name are not logged.`;

export const createHostCheck = (options: {
  readonly sdk: typeof ServerSdk;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly logger: Logger;
}): HostCheck => {
  const { sdk, logger } = options;
  const allowedHosts = [...options.allowedHosts];
  const allowedOrigins = [...options.allowedOrigins];
  const reported = new Set<string>();

  const report = (refusal: Refusal): void => {
    const key = `${refusal.header} ${refusal.hostname ?? refusal.message}`;
    if (reported.has(key) || reported.size > remembered) return;
    reported.add(key);
    if (reported.size > remembered) {
      logger.warn(`more than ${remembered} different Host and Origin names were refused: further refusals are not logged`);
      return;
    }
    logger.warn(warningOf(refusal, refusal.header === 'host' ? allowedHosts : allowedOrigins));
  };

  const refusalOf = (req: IncomingMessage): Refusal | undefined => {
    const host = sdk.validateHostHeader(headerOf(req, 'host'), allowedHosts);
    if (!host.ok) return { header: 'host', hostname: host.hostname, message: host.message };
    const origin = sdk.validateOriginHeader(headerOf(req, 'origin'), allowedOrigins);
    if (!origin.ok) return { header: 'origin', hostname: origin.hostname, message: origin.message };
    return undefined;
  };

  return {
    refuse: (req, res) => {
      const refusal = refusalOf(req);
      if (refusal === undefined) return false;
      report(refusal);
      sendJsonError(res, 403, -32000, refusal.message);
      return true;
    },
  };
};
