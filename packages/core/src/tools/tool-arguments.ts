import { closestNames, didYouMean, formatList } from '../text/suggest.js';
import type { ToolInputSchema, ToolPropertySchema } from '../contracts/tools.js';

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

const checkProperty = (name: string, spec: ToolPropertySchema, value: unknown): string | undefined => {
  switch (spec.type) {
    case 'string': {
      if (typeof value !== 'string') return `"${name}" must be a string, not ${typeName(value)}`;
      if (spec.enum !== undefined && !spec.enum.includes(value)) return `"${name}" must be one of ${formatList(spec.enum)}`;
      if (spec.minLength !== undefined && value.length < spec.minLength)
        return spec.minLength === 1 ? `"${name}" must not be empty` : `"${name}" must have at least ${spec.minLength} characters`;
      if (spec.maxLength !== undefined && value.length > spec.maxLength)
        return `"${name}" must have at most ${spec.maxLength} characters (got ${value.length})`;
      return undefined;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `"${name}" must be a number, not ${typeName(value)}`;
      if (spec.type === 'integer' && !Number.isInteger(value)) return `"${name}" must be a whole number`;
      const range =
        spec.minimum !== undefined && spec.maximum !== undefined
          ? `from ${spec.minimum} to ${spec.maximum}`
          : spec.minimum !== undefined
            ? `at least ${spec.minimum}`
            : `at most ${spec.maximum}`;
      if ((spec.minimum !== undefined && value < spec.minimum) || (spec.maximum !== undefined && value > spec.maximum))
        return `"${name}" must be ${range}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `"${name}" must be true or false, not ${typeName(value)}`;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value))
        return `"${name}" must be an object of names to text values, not ${typeName(value)}`;
      const bad = Object.entries(value as Record<string, unknown>).find(
        ([, item]) => typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean',
      );
      return bad === undefined ? undefined : `"${name}.${bad[0]}" must be text, not ${typeName(bad[1])}`;
    }
    case 'array': {
      if (!Array.isArray(value)) return `"${name}" must be a list of strings, not ${typeName(value)}`;
      if (spec.maxItems !== undefined && value.length > spec.maxItems) return `"${name}" may hold at most ${spec.maxItems} items`;
      if (!value.every((item) => typeof item === 'string')) return `"${name}" must hold only strings`;
      const { maxLength } = spec.items;
      if (maxLength !== undefined && value.some((item: string) => item.length > maxLength))
        return `every item of "${name}" must have at most ${maxLength} characters`;
      return undefined;
    }
  }
};

/**
 * Checks arguments against a tool's schema: required keys, types, enums, ranges and no unknown keys.
 * Returns every problem as a readable sentence, or an empty list. `null` counts as absent.
 */
export const validateToolArguments = (schema: ToolInputSchema, args: Readonly<Record<string, unknown>>): string[] => {
  const problems: string[] = [];
  const known = Object.keys(schema.properties);
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null) problems.push(`"${name}" is required`);
  }
  for (const [name, value] of Object.entries(args)) {
    const spec = schema.properties[name];
    if (spec === undefined) {
      problems.push(`"${name}" is not an argument of this tool${didYouMean(closestNames(name, known), 'aside')}`);
      continue;
    }
    if (value === undefined || value === null) continue;
    const problem = checkProperty(name, spec, value);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
};
