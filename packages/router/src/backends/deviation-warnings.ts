import type { Logger } from '@promptyard/core';
import type { Deviation } from '../sdk/liberal-results.js';

/** The warning for each kind of deviation a server's messages show (read anyway). */
const deviationText: Readonly<Record<Deviation['kind'], string>> = {
  'missing-resultType':
    'server sent a 2026-07-28 result without resultType; read as complete (the rule for earlier revisions) — its maintainers should add resultType to every result',
  'json-lines-body':
    'server answered a request with several JSON messages one a line in an application/json body; read as a batch — its maintainers should send one JSON message or a text/event-stream',
};

/**
 * What a backend sent that a strict reader refuses, read anyway (`sdk/liberal-results.ts`): each kind
 * warned about once per server on stderr, for as long as the gateway runs (reconnections included).
 */
export const deviationWarnings = (server: string, logger: Logger): ((deviation: Deviation) => void) => {
  const warned = new Set<Deviation['kind']>();
  return (deviation) => {
    if (warned.has(deviation.kind)) return;
    warned.add(deviation.kind);
    logger.warn(deviationText[deviation.kind], { server, method: deviation.method ?? 'unknown', note: 'warned once per server' });
  };
};
