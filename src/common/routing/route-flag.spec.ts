import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteFlag } from './route-flag';

const Flagged = () => SetMetadata('flag', true);

class Plain {
  open(): void {}
  @Flagged()
  marked(): void {}
}

@Flagged()
class Marked {
  any(): void {}
}

const contextOf = (controller: object, handler: object) => ({ getClass: () => controller, getHandler: () => handler }) as unknown as ExecutionContext;

describe('RouteFlag', () => {
  it.each<[string, object, object, boolean]>([
    ['an unmarked method of an unmarked controller', Plain, Plain.prototype.open, false],
    ['a marked method', Plain, Plain.prototype.marked, true],
    ['any method of a marked controller', Marked, Marked.prototype.any, true],
  ])('reads %s', (_label, controller, handler, expected) => {
    expect(new RouteFlag(new Reflector(), 'flag').isSet(contextOf(controller, handler))).toBe(expected);
  });

  it('reads the decorators of a route once', () => {
    const reflector = new Reflector();
    const read = jest.spyOn(reflector, 'getAllAndOverride');
    const flag = new RouteFlag(reflector, 'flag');
    for (let i = 0; i < 3; i++) expect(flag.isSet(contextOf(Plain, Plain.prototype.marked))).toBe(true);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
