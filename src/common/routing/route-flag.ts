import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/**
 * A boolean route decorator (set on the method or its controller) read once per route rather
 * than on every request: decorators do not change at run time, and guards run on the hot paths.
 */
export class RouteFlag {
  private readonly byController = new WeakMap<object, WeakMap<object, boolean>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly metadataKey: string,
  ) {}

  isSet(context: ExecutionContext): boolean {
    const [controller, handler] = [context.getClass(), context.getHandler()];
    let byHandler = this.byController.get(controller);
    if (!byHandler) this.byController.set(controller, (byHandler = new WeakMap()));
    let set = byHandler.get(handler);
    if (set === undefined) {
      set = this.reflector.getAllAndOverride<boolean | undefined>(this.metadataKey, [handler, controller]) === true;
      byHandler.set(handler, set);
    }
    return set;
  }
}
