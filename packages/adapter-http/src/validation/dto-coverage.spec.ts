import { getMetadataStorage } from 'class-validator';
import { buildOpenApiDocument } from '../index';
import { declaredFields } from './dto-metadata';
import { Str } from './decorators';

/** Every class that has at least one class-validator constraint: the request DTOs once the controllers are loaded. */
function validatedClasses(): Function[] {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, unknown[]> };
  return [...storage.validationMetadatas.keys()];
}

/** Declared properties exist on a fresh instance (ES2022 class fields); those with no constraint are unchecked input. */
function unchecked(dto: Function): string[] {
  const { order } = declaredFields(dto);
  return Object.keys(new (dto as new () => object)()).filter((key) => !order.has(key));
}

describe('request DTOs (no field is read without a class-validator constraint)', () => {
  it('finds every documented body and query class among the validated ones', () => {
    const names = new Set(validatedClasses().map((c) => c.name));
    const components = Object.keys((buildOpenApiDocument('test').components as { schemas: object }).schemas);
    expect(components.length).toBeGreaterThan(20);
    expect(components.filter((name) => !names.has(name))).toEqual([]);
  });

  it('has class-validator metadata on every property of every DTO', () => {
    const missing = validatedClasses().flatMap((dto) => unchecked(dto).map((key) => `${dto.name}.${key}`));
    expect(missing).toEqual([]);
  });

  it('notices a property declared without a decorator', () => {
    class Sloppy {
      @Str() checked?: string;
      forgotten?: string;
    }
    expect(unchecked(Sloppy)).toEqual(['forgotten']);
  });
});
