export * from './bus-events';
export * from './account-event-streams';
export * from './tokens';
export * from './ports';
