export * from './json';
export * from './step-kinds';
export * from './expressions';
export * from './condition';
export * from './definition';
export * from './classification';
export * from './run';
export * from './limits';
