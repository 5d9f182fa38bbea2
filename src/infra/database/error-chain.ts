/** What the database-error rules look at in an error. */
export interface ErrorLike {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
}

/**
 * An error and everything it wraps: pg errors arrive as they are, Prisma's adapter wraps them in a
 * DriverAdapterError (`cause`, with a `kind`), and Prisma wraps that again (`meta.driverAdapterError`
 * of a P2010, or `cause`). The rules test each link of the chain.
 */
export function errorChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  const visit = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 6 || chain.includes(node)) return;
    chain.push(node);
    const wrapper = node as { cause?: unknown; meta?: unknown; driverAdapterError?: unknown };
    visit(wrapper.cause, depth + 1);
    visit(wrapper.meta, depth + 1);
    visit(wrapper.driverAdapterError, depth + 1);
  };
  visit(error, 0);
  return chain;
}
