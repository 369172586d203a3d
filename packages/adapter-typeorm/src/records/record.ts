import { EntitySchema, EntitySchemaColumnOptions, EntitySchemaOptions } from 'typeorm';

/**
 * The one typed source of the schema. Each table has a row interface — the fields exactly as `pg`
 * hands a `SELECT *` row back — and an EntitySchema built by `record`, which refuses at compile time
 * a column the interface lacks, a field with no column, and a column whose PostgreSQL type or
 * nullability disagrees with its field's TypeScript type. The schema-drift test holds the records
 * against what the migrations create, so a repository that reads rows as `Pick<XRecord, …>` reads
 * what the database holds.
 */

/** PostgreSQL types `pg` returns as strings: bigint and numeric too, since they can exceed a double. */
type StringType = 'bigint' | 'numeric' | 'varchar' | 'char' | 'text' | 'uuid' | 'tsvector';
type NumberType = 'integer' | 'smallint' | 'real' | 'double precision';
type JsonType = 'json' | 'jsonb';

/** The scalar column types a value of TypeScript type `T` (never null) may be stored in. */
type Scalar<T> = [T] extends [Buffer]
  ? 'bytea'
  : [T] extends [boolean]
    ? 'boolean'
    : [T] extends [Date]
      ? 'timestamptz' | 'date'
      : [T] extends [number]
        ? NumberType
        : [T] extends [string]
          ? StringType
          : JsonType;

/** The column types a field of TypeScript type `T` (never null) may be stored in: an array is a PostgreSQL array or JSON. */
type StoredAs<T> = [T] extends [ReadonlyArray<infer E>]
  ? { type: JsonType; array?: false } | { type: Scalar<E>; array: true }
  : { type: Scalar<T>; array?: false };

/** A column for a field of type `T`: NOT NULL unless `T` admits null (`unknown`, a JSON value, may be either). */
export type ColumnFor<T> = EntitySchemaColumnOptions &
  (unknown extends T
    ? { type: JsonType; array?: false }
    : null extends T
      ? StoredAs<Exclude<T, null>> & { nullable: true }
      : StoredAs<T> & { nullable?: false });

/** One column per field of `Row`, each agreeing with its field. */
export type ColumnsFor<Row> = { [K in keyof Row]-?: ColumnFor<Row[K]> };

/** An EntitySchema whose columns are checked against the row interface `Row`. */
export function record<Row>(
  options: Omit<EntitySchemaOptions<Row>, 'columns'> & { columns: ColumnsFor<Row> },
): EntitySchema<Row> {
  return new EntitySchema<Row>(options as EntitySchemaOptions<Row>);
}

/** The row interface of a record. */
export type RowOf<S> = S extends EntitySchema<infer Row> ? Row : never;
