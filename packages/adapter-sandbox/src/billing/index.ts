export * from './sandbox-billing-gateway';
