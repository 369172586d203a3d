export * from './stripe-client';
export * from './stripe-billing-gateway';
export * from './stripe-billing-events';
