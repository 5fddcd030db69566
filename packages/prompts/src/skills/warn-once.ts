import type { Logger } from '@promptyard/core';

/** Logs a warning the first time only: a skill left out is reported once, not on every listing. */
export type WarnOnce = (message: string, fields: Readonly<Record<string, string | number>>) => void;

export const createWarnOnce = (logger: Logger): WarnOnce => {
  const warned = new Set<string>();
  return (message, fields) => {
    const key = `${message} ${JSON.stringify(fields)}`;
    if (warned.has(key)) return;
    warned.add(key);
    logger.warn(message, fields);
  };
};
