/**
 * The skill-library contract: Agent Skills (folders holding `SKILL.md` and the files it uses) as one
 * tree of relative, `/`-separated paths — `<skill>/SKILL.md`, `<skill>/references/GUIDE.md`. The
 * prompt sources find and read the folders; the MCP seam serves the tree through the skills extension
 * (`skills/list`, `skills/get`, `skill://` resources). `''` is the root: its children are the skills.
 */

/** One child of a folder in the tree. */
export interface SkillTreeEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory';
}

export interface SkillTree {
  /** What the tree reads (folders), for logs. */
  readonly id: string;
  /** The children of `dir`; throws when it is not a folder of the tree. */
  list(dir: string): Promise<SkillTreeEntry[]>;
  /** A file's bytes; throws when it is not a file of the tree, leaves its skill folder or is too large. */
  read(path: string): Promise<Uint8Array>;
  /** Hot reload: `onChange` after a batch of changes to any skill file, until `close`. Resolves once watching. */
  watch?(onChange: () => void): Promise<void>;
  /** Stops watching. */
  close?(): Promise<void>;
}
