export * from './folder';
