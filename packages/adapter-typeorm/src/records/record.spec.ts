import { bigint, jsonb, text, timestamptz, varchar } from './columns';
import { record } from './record';

/**
 * `record` holds the columns against the row interface at compile time: each `@ts-expect-error`
 * below is a disagreement it must refuse (tsconfig.tests.json fails if one of them compiles).
 */

interface Row {
  id: string;
  note: string | null;
  seen_at: Date;
  payload: unknown;
  tags: string[];
}

const agreeing = {
  id: bigint(),
  note: text(true),
  seen_at: timestamptz(),
  payload: jsonb(true),
  tags: { type: 'text', array: true },
} as const;

describe('record', () => {
  it('builds an EntitySchema from columns that agree with the row interface', () => {
    expect(record<Row>({ name: 'probe', columns: agreeing }).options.columns).toEqual(agreeing);
  });

  it('refuses, at compile time, columns that disagree with the row interface', () => {
    // biome-ignore format: each @ts-expect-error must stay on the line just before the refusal it expects
    const refused = [
      // @ts-expect-error a field without a column
      () => record<Row>({ name: 'probe', columns: { id: bigint(), note: text(true), seen_at: timestamptz(), payload: jsonb() } }),
      // @ts-expect-error a column without a field
      () => record<Row>({ name: 'probe', columns: { ...agreeing, extra: text() } }),
      // @ts-expect-error a nullable column for a field that admits no null
      () => record<Row>({ name: 'probe', columns: { ...agreeing, seen_at: timestamptz(true) } }),
      // @ts-expect-error a NOT NULL column for a field that admits null
      () => record<Row>({ name: 'probe', columns: { ...agreeing, note: varchar(10) } }),
      // @ts-expect-error a column type the field's type is not read as
      () => record<Row>({ name: 'probe', columns: { ...agreeing, seen_at: text() } }),
      // @ts-expect-error a scalar column for an array field
      () => record<Row>({ name: 'probe', columns: { ...agreeing, tags: text() } }),
    ];
    expect(refused).toHaveLength(6);
  });
});
