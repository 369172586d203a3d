import { ManualClock } from './clock';

describe('ManualClock', () => {
  it('stands still until set or advanced, and a caller cannot move it through the Date it was given', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00.000Z'));
    clock.now().setUTCFullYear(1999);

    expect(clock.now()).toEqual(new Date('2030-01-01T00:00:00.000Z'));
    clock.advance(1_500);
    expect(clock.now()).toEqual(new Date('2030-01-01T00:00:01.500Z'));
    clock.set(new Date('2031-06-01T12:00:00.000Z'));
    expect(clock.now()).toEqual(new Date('2031-06-01T12:00:00.000Z'));
  });
});
