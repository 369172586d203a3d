import { getMetadataStorage } from 'class-validator';
import '../index';
import { documentedRoutes } from '../openapi/route-doc';
import { declaredFields } from './dto-metadata';
import { Str } from './decorators';

/** The bodies and queries the controllers document. */
function documentedClasses(): Function[] {
  const docs = documentedRoutes(() => true);
  return [...new Set(docs.flatMap((doc) => [doc.body, doc.query]).filter((dto) => dto !== undefined))];
}

/** Every request DTO: the documented ones and every class with a class-validator constraint of its own (items, stages). */
function requestClasses(): Function[] {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, unknown[]> };
  return [...new Set([...documentedClasses(), ...storage.validationMetadatas.keys()])];
}

/** Declared properties exist on a fresh instance (ES2022 class fields); those with no constraint are unchecked input. */
function unchecked(dto: Function): string[] {
  const { order } = declaredFields(dto);
  return Object.keys(new (dto as new () => object)()).filter((key) => !order.has(key));
}

describe('request DTOs (no field is read without a class-validator constraint)', () => {
  it('finds class-validator metadata on every documented body and query', () => {
    const documented = documentedClasses();
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((dto) => declaredFields(dto).order.size === 0).map((dto) => dto.name)).toEqual([]);
  });

  it('has class-validator metadata on every property of every DTO', () => {
    const missing = requestClasses().flatMap((dto) => unchecked(dto).map((key) => `${dto.name}.${key}`));
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
