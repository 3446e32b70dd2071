// The six checks of a quick examination, by name, in the order they run: a file of its own so that what records a
// failed check (the search's journal, the meta agent's tried list) can name them without loading the sandbox.
export const CHECK_NAMES = ['imports', 'interface', 'update', 'retrieve', 'payload-schema', 'payload-budget'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
