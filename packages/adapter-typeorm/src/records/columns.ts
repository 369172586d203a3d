import type { EntitySchemaColumnOptions, EntitySchemaOptions } from 'typeorm';

/**
 * Column and constraint shapes the migrations use again and again, spelled as TypeORM must see
 * them for its schema builder to find no difference. Constraint names are the ones PostgreSQL gives
 * unnamed constraints (`<table>_pkey`, `<table>_<column>_fkey`, `<table>_<column>_key`,
 * `<table>_<column>_check`), because the migrations leave them unnamed.
 */

type ForeignKey = NonNullable<EntitySchemaOptions<unknown>['foreignKeys']>[number];
type OnDelete = ForeignKey['onDelete'];

/** `bigserial PRIMARY KEY`. */
export function serialKey(table: string): EntitySchemaColumnOptions {
  return { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: `${table}_pkey` };
}

/** A (part of a) primary key the application supplies. */
export function primaryKey(table: string, column: EntitySchemaColumnOptions): EntitySchemaColumnOptions {
  return { ...column, primary: true, primaryKeyConstraintName: `${table}_pkey` };
}

export const varchar = (length: number, nullable = false): EntitySchemaColumnOptions => ({ type: 'varchar', length, nullable });
export const char = (length: number, nullable = false): EntitySchemaColumnOptions => ({ type: 'char', length, nullable });
export const text = (nullable = false): EntitySchemaColumnOptions => ({ type: 'text', nullable });
export const integer = (nullable = false): EntitySchemaColumnOptions => ({ type: 'integer', nullable });
export const bigint = (nullable = false): EntitySchemaColumnOptions => ({ type: 'bigint', nullable });
export const boolean = (nullable = false): EntitySchemaColumnOptions => ({ type: 'boolean', nullable });
export const double = (nullable = false): EntitySchemaColumnOptions => ({ type: 'double precision', nullable });
export const timestamptz = (nullable = false): EntitySchemaColumnOptions => ({ type: 'timestamptz', nullable });
export const jsonb = (nullable = false): EntitySchemaColumnOptions => ({ type: 'jsonb', nullable });
export const numeric = (precision: number, scale: number, nullable = false): EntitySchemaColumnOptions => ({ type: 'numeric', precision, scale, nullable });

/** `timestamptz NOT NULL DEFAULT now()`. */
export const stampedNow = (): EntitySchemaColumnOptions => ({ type: 'timestamptz', default: () => 'now()' });

/** `<column> … REFERENCES <target>(<key>) ON DELETE <onDelete>` (NO ACTION when the migration says nothing). */
export function references(table: string, column: string, target: string, onDelete: OnDelete = 'NO ACTION', key = 'id'): ForeignKey {
  return { name: `${table}_${column}_fkey`, target, columnNames: [column], referencedColumnNames: [key], onDelete };
}

/** The `user_id … REFERENCES users(id) ON DELETE CASCADE` every owned row carries. */
export const ownedByUser = (table: string): ForeignKey => references(table, 'user_id', 'users', 'CASCADE');

/** An inline `UNIQUE` column constraint. */
export const uniqueColumn = (table: string, column: string) => ({ name: `${table}_${column}_key`, columns: [column] });

/** An inline `CHECK` on one column. */
export const columnCheck = (table: string, column: string, expression: string) => ({ name: `${table}_${column}_check`, expression });

/** `<table>_user_idx ON <table> (user_id, id DESC)`: the owner's list, newest first (TypeORM cannot say DESC). */
export const ownerListIndex = (table: string) => ({ name: `${table}_user_idx`, columns: ['user_id', 'id'] });
