export * from './ports';
export * from './tokens';
