import { delimiter } from 'node:path';
import { formatList } from '../text/suggest.js';

/** The schema a config is checked against, and how one field's value is read, checked and described. */

export type FieldSpec =
  | {
      readonly type: 'string';
      readonly enum?: readonly string[];
      readonly default?: string;
      readonly doc?: string;
      /** In a `[[name]]` entry: the entry is refused without it. */
      readonly required?: boolean;
    }
  /** A duration in milliseconds, written `"60s"`, `"500ms"`, `"5m"`, `"1h"` or `0`; from the environment the same way. */
  | { readonly type: 'duration'; readonly min?: number; readonly default?: number; readonly doc?: string }
  | { readonly type: 'integer'; readonly min?: number; readonly max?: number; readonly default?: number; readonly doc?: string }
  | { readonly type: 'boolean'; readonly default?: boolean; readonly doc?: string }
  | { readonly type: 'string[]'; readonly default?: readonly string[]; readonly separator?: 'comma' | 'path'; readonly doc?: string }
  /** A table of names to strings (`[resources.doc.libraries]`); from the environment as `name=value,…`. */
  | { readonly type: 'record'; readonly default?: Readonly<Record<string, string>>; readonly doc?: string };

export type SectionSpec = Readonly<Record<string, FieldSpec>>;
/** Section names may be dotted (`transport.rate_limit`) for nested tables; `name[]` is an array of tables (`[[name]]`). */
export type ConfigSchema = Readonly<Record<string, SectionSpec>>;

type FieldValue<F extends FieldSpec> = F extends { type: 'string'; enum: readonly (infer E)[] }
  ? E
  : F extends { type: 'string' }
    ? string
    : F extends { type: 'integer' | 'duration' }
      ? number
      : F extends { type: 'boolean' }
        ? boolean
        : F extends { type: 'record' }
          ? Readonly<Record<string, string>>
          : readonly string[];

type WithDefault<F extends FieldSpec> = F extends { default: unknown } ? FieldValue<F> : FieldValue<F> | undefined;

type SectionOf<F extends SectionSpec> = { readonly [Key in keyof F]: WithDefault<F[Key]> };

export type ConfigOf<S extends ConfigSchema> = {
  readonly [Section in keyof S]: Section extends `${string}[]` ? readonly SectionOf<S[Section]>[] : SectionOf<S[Section]>;
};

export const describeField = (spec: FieldSpec): string => {
  switch (spec.type) {
    case 'string':
      return spec.enum ? `one of ${formatList(spec.enum)}` : 'a string';
    case 'integer':
      return spec.min !== undefined && spec.max !== undefined
        ? `an integer from ${spec.min} to ${spec.max}`
        : spec.min !== undefined
          ? `an integer of at least ${spec.min}`
          : 'an integer';
    case 'boolean':
      return 'true or false';
    case 'duration':
      return `a duration such as "60s", "5m" or "500ms"${spec.min === undefined ? '' : ` of at least ${spec.min} ms`} (0 for none)`;
    case 'string[]':
      return 'a list of strings';
    case 'record':
      return 'a table of names to strings';
  }
};

export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration with its unit, `60s` or `1.5m`: the loader's form, and the JSON Schema's. */
export const DURATION_PATTERN = '(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)';

/** `"60s"` → 60000; `0` or `"0"` → 0; anything else (a bare number other than 0, another unit) → undefined. */
const durationMs = (value: unknown): number | undefined => {
  if (value === 0 || value === '0') return 0;
  if (typeof value !== 'string') return undefined;
  // A strict form on purpose: "60" alone would be ambiguous (seconds or milliseconds).
  const match = new RegExp(`^${DURATION_PATTERN}$`).exec(value.trim());
  return match === null ? undefined : Math.round(Number(match[1]) * (durationUnits[match[2] as string] as number));
};

export const coerce = (spec: FieldSpec, value: unknown): { ok: true; value: unknown } | { ok: false } => {
  switch (spec.type) {
    case 'duration': {
      const ms = durationMs(typeof value === 'bigint' ? Number(value) : value);
      return ms === undefined || (spec.min !== undefined && ms !== 0 && ms < spec.min) ? { ok: false } : { ok: true, value: ms };
    }
    case 'string':
      if (typeof value !== 'string') return { ok: false };
      if (spec.enum && !spec.enum.includes(value)) return { ok: false };
      return { ok: true, value };
    case 'integer': {
      const number = typeof value === 'bigint' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isInteger(number)) return { ok: false };
      if ((spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) return { ok: false };
      return { ok: true, value: number };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false };
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? { ok: true, value } : { ok: false };
    case 'record':
      return isTable(value) && Object.values(value).every((item) => typeof item === 'string')
        ? { ok: true, value: { ...value } }
        : { ok: false };
  }
};

export const fromEnvString = (spec: FieldSpec, raw: string): unknown => {
  switch (spec.type) {
    case 'string':
    case 'duration':
      return raw;
    case 'integer':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    case 'boolean': {
      const lowered = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
      if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
      return raw;
    }
    case 'string[]':
      return raw
        .split(spec.separator === 'path' ? delimiter : ',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'record': {
      const entries = raw.split(',').map((item) => item.split('=').map((part) => part.trim()));
      return entries.every((pair) => pair.length === 2 && pair[0] !== '') ? Object.fromEntries(entries) : raw;
    }
  }
};

/** `transport.rate_limit` + `burst` → `PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST`. */
export const envName = (section: string, key: string, prefix = 'PROMPTYARD'): string =>
  `${prefix}_${section}_${key}`.replace(/[.-]/g, '_').toUpperCase();
