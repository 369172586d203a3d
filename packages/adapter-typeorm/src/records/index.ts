import { EntitySchema } from 'typeorm';

/** Every EntitySchema the DataSource knows. */
export const entitySchemas: EntitySchema[] = [];
