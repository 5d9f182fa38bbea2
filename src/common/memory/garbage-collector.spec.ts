import { setFlagsFromString } from 'node:v8';

jest.mock('node:v8', () => ({ ...jest.requireActual('node:v8'), setFlagsFromString: jest.fn() }));
jest.mock('node:vm', () => ({ runInNewContext: jest.fn(() => jest.fn()) }));

type Module = typeof import('./garbage-collector');

/** A fresh copy of the module: the collector is process state. */
function freshModule(): Module {
  let loaded: Module | undefined;
  jest.isolateModules(() => (loaded = jest.requireActual<Module>('./garbage-collector')));
  return loaded!;
}

describe('forced collections and the role', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it('an api process (collections not allowed) never sets --expose-gc, however often the code asks for a collection', () => {
    const gc = freshModule();
    gc.allowForcedCollections(false);
    gc.collectGarbage('major');
    gc.collectGarbage('minor');
    expect(setFlagsFromString).not.toHaveBeenCalled();
    expect(gc.collectorExposed()).toBe(false);
  });

  it('loading the module exposes nothing; a worker (or all) exposes the collector at its first forced collection, once', () => {
    const gc = freshModule();
    expect(setFlagsFromString).not.toHaveBeenCalled();
    gc.allowForcedCollections(true);
    gc.collectGarbage('minor');
    gc.collectGarbage('major');
    expect(setFlagsFromString).toHaveBeenCalledTimes(1);
    expect(setFlagsFromString).toHaveBeenCalledWith('--expose-gc');
    expect(gc.collectorExposed()).toBe(true);
  });
});
