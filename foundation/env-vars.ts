// process.env as a parameter's type in the public API: the same shape without @types/node's NodeJS namespace, so a
// consumer of automemo's types needs no @types/node.
export type EnvVars = Readonly<Record<string, string | undefined>>;
