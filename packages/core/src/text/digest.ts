import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of `value`: keys sorted by UTF-16 code units, numbers
 * and strings in one spelling, so equal JSON values give equal text whatever order their keys came in.
 * `undefined` members are dropped as JSON.stringify drops them.
 */
export const canonicalJson = (value: unknown): string => canonicalize(value) ?? 'null';

/** Lowercase hex SHA-256 of `text` (UTF-8). */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** SHA-256 of the canonical JSON of `value`: one digest for one JSON value, whatever its key order. */
export const canonicalDigest = (value: unknown): string => sha256Hex(canonicalJson(value));
