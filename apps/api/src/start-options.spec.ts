import { parseStartOptions } from './start-options';

describe('parseStartOptions', () => {
  it.each<[string[], { newDemoKey: boolean; help: boolean }]>([
    [[], { newDemoKey: false, help: false }],
    [['--new-demo-key'], { newDemoKey: true, help: false }],
    [['--help'], { newDemoKey: false, help: true }],
    [['-h', '--new-demo-key'], { newDemoKey: true, help: true }],
  ])('%j', (args, options) => {
    expect(parseStartOptions(args)).toEqual({ ok: true, value: options });
  });

  it.each([['--new-demo-kye'], ['--new-demo-key=1'], ['start']])('refuses %s', (arg) => {
    expect(parseStartOptions(['--new-demo-key', arg])).toEqual({ ok: false, error: `unknown option "${arg}"` });
  });
});
