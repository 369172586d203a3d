import type { ColumnType, EntitySchemaColumnOptions, EntitySchemaOptions } from 'typeorm';

/**
 * Column and constraint shapes the migrations use again and again, spelled as TypeORM must see
 * them for its schema builder to find no difference. Constraint names are the ones PostgreSQL gives
 * unnamed constraints (`<table>_pkey`, `<table>_<column>_fkey`, `<table>_<column>_key`,
 * `<table>_<column>_check`), because the migrations leave them unnamed.
 */

type ForeignKey = NonNullable<EntitySchemaOptions<unknown>['foreignKeys']>[number];
type OnDelete = ForeignKey['onDelete'];

/** `bigserial PRIMARY KEY`. */
export function serialKey(table: string) {
  return { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: `${table}_pkey` } as const;
}

/** A (part of a) primary key the application supplies. */
export function primaryKey<C extends EntitySchemaColumnOptions>(table: string, column: C) {
  return { ...column, primary: true, primaryKeyConstraintName: `${table}_pkey` } as const;
}

/**
 * The column helpers keep their PostgreSQL type and nullability in their TypeScript type, so that
 * `record` can hold each column against the field of the row interface it describes.
 */
// NoInfer: `nullable` alone decides N; left out, N is its default (false), whatever the call's context expects.
type Column<T extends ColumnType, N extends boolean> = { type: T; nullable: NoInfer<N> };
const column = <T extends ColumnType, N extends boolean>(type: T, nullable: N | undefined): Column<T, N> => ({
  type,
  nullable: (nullable ?? false) as N,
});

export const varchar = <N extends boolean = false>(length: number, nullable?: N) => ({
  ...column<'varchar', N>('varchar', nullable),
  length,
});
export const char = <N extends boolean = false>(length: number, nullable?: N) => ({
  ...column<'char', N>('char', nullable),
  length,
});
export const text = <N extends boolean = false>(nullable?: N) => column<'text', N>('text', nullable);
export const integer = <N extends boolean = false>(nullable?: N) => column<'integer', N>('integer', nullable);
export const bigint = <N extends boolean = false>(nullable?: N) => column<'bigint', N>('bigint', nullable);
export const boolean = <N extends boolean = false>(nullable?: N) => column<'boolean', N>('boolean', nullable);
export const double = <N extends boolean = false>(nullable?: N) =>
  column<'double precision', N>('double precision', nullable);
export const timestamptz = <N extends boolean = false>(nullable?: N) =>
  column<'timestamptz', N>('timestamptz', nullable);
export const jsonb = <N extends boolean = false>(nullable?: N) => column<'jsonb', N>('jsonb', nullable);
export const numeric = <N extends boolean = false>(precision: number, scale: number, nullable?: N) => ({
  ...column<'numeric', N>('numeric', nullable),
  precision,
  scale,
});

/** `timestamptz NOT NULL DEFAULT now()`. */
export const stampedNow = () => ({ type: 'timestamptz', default: () => 'now()' }) as const;

/** `<column> … REFERENCES <target>(<key>) ON DELETE <onDelete>` (NO ACTION when the migration says nothing). */
export function references(
  table: string,
  column: string,
  target: string,
  onDelete: OnDelete = 'NO ACTION',
  key = 'id',
): ForeignKey {
  return { name: `${table}_${column}_fkey`, target, columnNames: [column], referencedColumnNames: [key], onDelete };
}

/** The `user_id … REFERENCES users(id) ON DELETE CASCADE` every owned row carries. */
export const ownedByUser = (table: string): ForeignKey => references(table, 'user_id', 'users', 'CASCADE');

/** An inline `UNIQUE` column constraint. */
export const uniqueColumn = (table: string, column: string) => ({ name: `${table}_${column}_key`, columns: [column] });

/** An inline `CHECK` on one column. */
export const columnCheck = (table: string, column: string, expression: string) => ({
  name: `${table}_${column}_check`,
  expression,
});

/** `<table>_user_idx ON <table> (user_id, id DESC)`: the owner's list, newest first (TypeORM cannot say DESC). */
export const ownerListIndex = (table: string) => ({ name: `${table}_user_idx`, columns: ['user_id', 'id'] });
