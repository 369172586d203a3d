export * from './token';
export * from './secret-cipher';
export * from './page';
export * from './loggable-error';
