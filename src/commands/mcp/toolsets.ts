// The groups of tools `pds mcp --toolsets` offers, and whether each writes (then it needs
// --allow-writes).
export const TOOLSETS = {
  catalog: { write: false },
  documents: { write: false },
  search: { write: false },
  sandbox: { write: false },
  knowledge: { write: false },
  uploads: { write: true },
  tags: { write: true },
} as const;

export type Toolset = keyof typeof TOOLSETS;

export const isToolset = (name: string): name is Toolset => Object.hasOwn(TOOLSETS, name);

/** Every toolset, in the order above. */
export const TOOLSET_NAMES: readonly Toolset[] = Object.keys(TOOLSETS).filter(isToolset);
