import recorded from './success-examples.json';

/** Example success answers by operation (`METHOD /document/path`) and status. */
export type SuccessExamples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * Answers recorded from the HTTP test suites (`RECORD_OPENAPI_EXAMPLES=1`, see docs/testing.md); every suite that
 * gets a 2xx from an operation checks its recorded example still has the shape of what the route answers.
 */
export const RECORDED_EXAMPLES: SuccessExamples = recorded;

export function successExample(operation: string, status: number): unknown {
  return RECORDED_EXAMPLES[operation]?.[status];
}
