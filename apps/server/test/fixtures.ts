/** A small but realistic prompt folder: frontmatter, Liquid, $ARGUMENTS, nesting and a twig library. */
export const promptFiles: Record<string, string> = {
  'review.md': `---
description: Review code for bugs and style
arguments:
  - name: code
    description: The code to review
    required: true
  - name: language
    description: Programming language
    enum: [python, typescript, rust]
    default: typescript
tags: [quality]
---
Review this {{ language }} code:

{{ code }}
{% if focus %}Focus on {{ focus }}.{% endif %}`,
  'git/commit.md': `# Write a commit message

Summarise these changes: {{ diff }}`,
  'git/deep/squash.md': `---
title: Squash commits
---
Squash the last {{ count | default: 2 }} commits.`,
  'plan.md': `---
description: Plan the work
---
Plan: $ARGUMENTS

Keep {{ braces }} literal.`,
  'decode.md': `---
description: Decode a URL-encoded value
---
Decoded value:
{{ value | url_decode }}`,
  'writing/twig.toml': `[prompts.summarize]
description = "Summarise a text"

[[prompts.summarize.arguments]]
name = "text"
description = "Text to summarise"
required = true
`,
  'writing/prompts/summarize.md': `Summarise in {{ words | default: 50 }} words:

{{ text }}`,
};
