/**
 * `[limits] max_definitions` (or a server's own `max_definitions`): the lists of a server that
 * were cut to the cap, said in words — what `/health`, `status` and the console show of the server
 * (degraded), and what the log says once each time it changes.
 */
import type { Logger } from '@promptyard/core';
import type { CappedList, Cuts } from './backend-lists.js';

const nouns: Readonly<Record<CappedList, string>> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resource templates',
};

/** The cap a server's lists are cut to, and the setting it comes from (for the messages). */
export interface DefinitionCap {
  readonly max: number;
  /** `[limits] max_definitions`, or `max_definitions of [servers.<id>]`. */
  readonly setting: string;
}

export const definitionCapOf = (id: string, own: number | undefined, global: number): DefinitionCap =>
  own === undefined
    ? { max: global, setting: '[limits] max_definitions' }
    : { max: own, setting: `max_definitions of [servers.${JSON.stringify(id)}]` };

/** One sentence per cut list: `github: lists 100000 tools, over [limits] max_definitions (10000); the first 10000 are served — …`. */
export const capReasons = (id: string, cuts: Cuts, cap: DefinitionCap): string[] =>
  (Object.keys(nouns) as CappedList[]).flatMap((list) => {
    const over = cuts[list];
    if (over === undefined) return [];
    const count = over.more ? `more than ${cap.max}` : String(over.count);
    return [
      `${id}: lists ${count} ${nouns[list]}, over ${cap.setting} (${cap.max}); the first ${cap.max} are served — raise the limit or trim the server`,
    ];
  });

/**
 * What was cut of a server's lists, and why it is degraded: told in the log once each time that
 * changes (not at every fetch of the same lists).
 */
export class CapNotes {
  private reasons: readonly string[] = [];
  private cut: Cuts = {};
  private readonly logger: Logger;
  private readonly server: string;
  private readonly cap: DefinitionCap;

  constructor(server: string, cap: DefinitionCap, logger: Logger) {
    this.server = server;
    this.cap = cap;
    this.logger = logger;
  }

  get current(): readonly string[] {
    return this.reasons;
  }

  get cuts(): Cuts {
    return this.cut;
  }

  /** The cuts of the lists as now fetched: new reasons are logged (a warning), and lists back under the cap said once. */
  update(cuts: Cuts): void {
    const reasons = capReasons(this.server, cuts, this.cap);
    const before = new Set(this.reasons);
    for (const reason of reasons) if (!before.has(reason)) this.logger.warn(reason, { server: this.server });
    if (reasons.length === 0 && this.reasons.length > 0)
      this.logger.info('every list of the server is within its max_definitions again', { server: this.server });
    this.reasons = reasons;
    this.cut = cuts;
  }
}
