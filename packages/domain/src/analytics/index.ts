export * from './call-analytics';
