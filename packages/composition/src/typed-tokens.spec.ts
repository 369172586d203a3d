import 'reflect-metadata';
import { Container, inject, injectable } from 'inversify';
import { CORE_TOKENS, TOKENS, token, type Clock, type Ids } from '@voiceplane/application';

class SystemClock implements Clock {
  now(): Date {
    return new Date(0);
  }
}

class NotAClock {
  ticks(): number {
    return 0;
  }
}

/**
 * Compiled (tsc -p tsconfig.tests.json), never run: each `@ts-expect-error` fails the type check
 * the day the line below it compiles.
 */
export function wrongBindingsDoNotCompile(c: Container, ids: Ids): void {
  // @ts-expect-error an Ids is not a Clock
  c.bind(TOKENS.Clock).toConstantValue(ids);
  // @ts-expect-error a class that is not a Clock
  c.bind(TOKENS.Clock).to(NotAClock);
  // @ts-expect-error a factory answering something else
  c.bind(TOKENS.Clock).toDynamicValue(() => new NotAClock());
  // @ts-expect-error what a token resolves to is its type, not another
  const clock: Ids = c.get(TOKENS.Clock);
  // @ts-expect-error a token is not a class to instantiate
  void new TOKENS.Clock();
  void clock;
}

describe('typed tokens', () => {
  it('resolve what was bound to them, typed', () => {
    const c = new Container();
    c.bind(TOKENS.Clock).to(SystemClock).inSingletonScope();
    const clock: Clock = c.get(TOKENS.Clock);
    expect(clock.now()).toEqual(new Date(0));
  });

  it('are the same symbols in the feature-local objects and in TOKENS', () => {
    expect(TOKENS.Clock).toBe(CORE_TOKENS.Clock);
  });

  it('are unique even under the same name', () => {
    expect(token<Clock>('Clock')).not.toBe(TOKENS.Clock);
  });

  it('inject a constructor parameter', () => {
    @injectable()
    class Stamp {
      constructor(@inject(TOKENS.Clock) private readonly clock: Clock) {}
      at(): Date {
        return this.clock.now();
      }
    }
    const c = new Container();
    c.bind(TOKENS.Clock).toConstantValue(new SystemClock());
    c.bind(Stamp).toSelf();
    expect(c.get(Stamp).at()).toEqual(new Date(0));
  });
});
