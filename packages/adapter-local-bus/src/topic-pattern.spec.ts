import { topicMatches } from './topic-pattern';

describe('topicMatches (AMQP topic syntax)', () => {
  it.each([
    ['call.ended', 'call.ended', true],
    ['call.ended', 'call.started', false],
    ['call.*', 'call.ended', true],
    ['call.*', 'call', false],
    ['call.*', 'call.ended.late', false],
    ['*.ended', 'call.ended', true],
    ['call.#', 'call', true],
    ['call.#', 'call.ended', true],
    ['call.#', 'call.ended.late', true],
    ['call.#', 'webhook.due', false],
    ['#', 'anything.at.all', true],
    ['#.ended', 'ended', true],
    ['#.ended', 'call.ended', true],
    ['#.ended', 'call.ended.late', false],
    ['call.#.late', 'call.late', true],
    ['call.#.late', 'call.ended.very.late', true],
    ['call.#.late', 'call.ended', false],
    ['call.*.late', 'call.late', false],
    ['#.*', 'call', true],
    ['#.*', '', true],
  ])('%s against %s → %s', (pattern, topic, expected) => {
    expect(topicMatches(pattern, topic)).toBe(expected);
  });
});
