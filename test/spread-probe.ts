// An object spread followed by a property of its own, as the CLI's code writes them: built by
// scripts/build-node.ts for its test, which checks that such objects share one hidden class.
export function withAdded(base: Record<string, unknown>, added: number): Record<string, unknown> {
  return { ...base, added };
}
