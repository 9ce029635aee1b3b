// The groups of tools `pds mcp --toolsets` offers, and whether each writes (then it needs
// --allow-writes). Apart from the tools, and free of imports, so the command's help names them at no cost.
export const TOOLSETS = {
  catalog: { write: false },
  documents: { write: false },
  search: { write: false },
  sandbox: { write: false },
  uploads: { write: true },
} as const;

export type Toolset = keyof typeof TOOLSETS;
