/**
 * What a bind address is: only this machine's (loopback) or every interface's (wildcard). Callers
 * decide with these before serving (a warning, the rate limit's default), so they live apart from the
 * HTTP front and importing the package does not load it.
 */

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** A bind address or host name that only this machine reaches. */
export const isLoopbackHost = (host: string): boolean => loopbackHosts.has(host) || host.startsWith('127.');

const wildcardHosts = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0', '']);

/** A bind address that listens on every interface. */
export const isWildcardHost = (host: string): boolean => wildcardHosts.has(host);
