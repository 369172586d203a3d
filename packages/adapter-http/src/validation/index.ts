export * from './field-spec';
export * from './decorators';
export * from './lists';
export * from './validate';
export { displayName } from './messages';
export { parseTimestamp } from './coercion';
export { declaredFields } from './dto-metadata';
export * from './pagination';
export { publicTarget, type TargetCheck } from './constraints';
