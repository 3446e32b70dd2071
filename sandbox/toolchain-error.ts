// The compiler, the type-checker or other shared machinery itself failed — esbuild's service died and did not come
// back, the TypeScript checker threw on a program it can otherwise check, the shared embedding workers stalled a
// quick examination twice — after restarting it and trying again. That is
// infrastructure: callers stop or report it by name, and never charge it to the program being compiled.
export type Tool = 'esbuild' | 'typescript' | 'embedding' | 'workers';

export class ToolchainError extends Error {
  override name = 'ToolchainError';

  constructor(
    readonly tool: Tool,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
