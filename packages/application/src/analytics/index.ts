export * from './ports';
export * from './call-analytics-report';
export * from './tokens';
