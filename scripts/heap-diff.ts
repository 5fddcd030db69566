/**
 * What grew between two heap snapshots (`pnpm soak -- --snapshots <dir>` writes one after the warm-up
 * and one at the end):
 *
 *   tsx scripts/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [rows]
 *
 * Objects are counted by kind and constructor name (`object Map`, `closure onAbort`, `(string)` …);
 * the table lists the kinds whose count or size grew most. Snapshots of one process number its
 * objects alike, so the objects of the later snapshot whose ids the earlier one lacks are the ones
 * made since and still alive; for the kinds most of them are, what holds them: the retaining
 * object's kind and the edge's name, counted.
 */
import { readFile } from 'node:fs/promises';

interface Snapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: string[];
      readonly node_types: [string[]];
      readonly edge_fields: string[];
      readonly edge_types: [string[]];
    };
  };
  readonly nodes: number[];
  readonly edges: number[];
  readonly strings: string[];
}

interface Parsed {
  /** Per node (by ordinal): its kind key. */
  readonly keys: string[];
  readonly sizes: number[];
  readonly ids: number[];
  readonly data: Snapshot;
}

const stringKinds = new Set(['string', 'concatenated string', 'sliced string']);

const parse = async (file: string): Promise<Parsed> => {
  const data = JSON.parse(await readFile(file, 'utf8')) as Snapshot;
  const { node_fields: fields, node_types: types } = data.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const idAt = fields.indexOf('id');
  const keys: string[] = [];
  const sizes: number[] = [];
  const ids: number[] = [];
  for (let offset = 0; offset < data.nodes.length; offset += width) {
    const type = types[0][data.nodes[offset + typeAt] as number] as string;
    const name = data.strings[data.nodes[offset + nameAt] as number] ?? '';
    keys.push(
      stringKinds.has(type)
        ? '(string)'
        : type === 'object' || type === 'closure' || type === 'native'
          ? `${type} ${name.slice(0, 60)}`
          : `(${type})`,
    );
    sizes.push(data.nodes[offset + sizeAt] as number);
    ids.push(data.nodes[offset + idAt] as number);
  }
  return { keys, sizes, ids, data };
};

const totals = (parsed: Parsed, only: (index: number) => boolean = () => true): Map<string, { count: number; size: number }> => {
  const byKey = new Map<string, { count: number; size: number }>();
  parsed.keys.forEach((key, index) => {
    if (!only(index)) return;
    const entry = byKey.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += parsed.sizes[index] as number;
    byKey.set(key, entry);
  });
  return byKey;
};

/** For the nodes of `key` that `only` picks: `retainer kind .edge` → count, over every edge into them. */
const retainersOf = (parsed: Parsed, key: string, only: (index: number) => boolean): Map<string, number> => {
  const { data, keys } = parsed;
  const { node_fields: nodeFields, edge_fields: edgeFields, edge_types: edgeTypes } = data.snapshot.meta;
  const width = nodeFields.length;
  const edgeWidth = edgeFields.length;
  const countAt = nodeFields.indexOf('edge_count');
  const typeAt = edgeFields.indexOf('type');
  const nameAt = edgeFields.indexOf('name_or_index');
  const toAt = edgeFields.indexOf('to_node');
  const counts = new Map<string, number>();
  let edge = 0;
  for (let node = 0; node < keys.length; node++) {
    const count = data.nodes[node * width + countAt] as number;
    for (let index = 0; index < count; index++, edge += edgeWidth) {
      const to = (data.edges[edge + toAt] as number) / width;
      if (keys[to] !== key || !only(to)) continue;
      const type = edgeTypes[0][data.edges[edge + typeAt] as number] as string;
      if (type === 'weak') continue;
      const raw = data.edges[edge + nameAt] as number;
      const name = type === 'element' || type === 'hidden' ? `[${type}]` : (data.strings[raw] ?? String(raw));
      const label = `${keys[node] as string} .${name}`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  }
  return counts;
};

const main = async (): Promise<void> => {
  const [beforeFile, afterFile, rowsArg] = process.argv.slice(2);
  if (beforeFile === undefined || afterFile === undefined)
    throw new Error('usage: tsx scripts/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [rows]');
  const rows = Number(rowsArg ?? 25);
  const before = await parse(beforeFile);
  const beforeTotals = totals(before);
  const after = await parse(afterFile);
  const afterTotals = totals(after);
  const grown = [...afterTotals]
    .map(([key, now]) => {
      const then = beforeTotals.get(key) ?? { count: 0, size: 0 };
      return { key, count: now.count - then.count, size: now.size - then.size, now };
    })
    .filter((each) => each.count > 0 || each.size > 0)
    .sort((a, b) => b.size - a.size);
  const total = (map: Map<string, { size: number }>): number => [...map.values()].reduce((sum, each) => sum + each.size, 0) / 1024 / 1024;
  const lines = [
    `heap: ${total(beforeTotals).toFixed(1)} MB → ${total(afterTotals).toFixed(1)} MB (${before.keys.length.toLocaleString('en-US')} → ${after.keys.length.toLocaleString('en-US')} objects)`,
    '',
    '| kind | count Δ | size Δ | count after |',
    '| --- | ---: | ---: | ---: |',
    ...grown
      .slice(0, rows)
      .map(
        (each) => `| ${each.key} | ${each.count >= 0 ? '+' : ''}${each.count} | ${(each.size / 1024).toFixed(1)} KB | ${each.now.count} |`,
      ),
  ];
  const seen = new Set(before.ids);
  const made = (index: number): boolean => !seen.has(after.ids[index] as number);
  const madeTotals = [...totals(after, made)].sort((a, b) => b[1].size - a[1].size);
  lines.push(
    '',
    'made since the earlier snapshot and still alive:',
    '',
    '| kind | count | size |',
    '| --- | ---: | ---: |',
    ...madeTotals.slice(0, rows).map(([key, each]) => `| ${key} | ${each.count} | ${(each.size / 1024).toFixed(1)} KB |`),
  );
  for (const [key, each] of madeTotals.filter(([kind]) => kind !== '(code)' && kind !== '(hidden)').slice(0, 10)) {
    const top = [...retainersOf(after, key, made)].sort((a, b) => b[1] - a[1]).slice(0, 6);
    lines.push('', `${key} (${each.count} made since) held by:`, ...top.map(([label, count]) => `  ${count}× ${label}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
};

await main();
