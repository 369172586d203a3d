/**
 * AMQP topic matching, so single-process mode routes exactly as RabbitMQ would: topics are words
 * separated by `.`, `*` stands for exactly one word and `#` for zero or more.
 */
export function topicMatches(pattern: string, topic: string): boolean {
  return matchFrom(pattern.split('.'), 0, topic.split('.'), 0);
}

function matchFrom(pattern: readonly string[], p: number, topic: readonly string[], t: number): boolean {
  if (p === pattern.length) return t === topic.length;
  if (pattern[p] === '#') {
    for (let rest = t; rest <= topic.length; rest++) {
      if (matchFrom(pattern, p + 1, topic, rest)) return true;
    }
    return false;
  }
  if (t === topic.length) return false;
  return (pattern[p] === '*' || pattern[p] === topic[t]) && matchFrom(pattern, p + 1, topic, t + 1);
}
