export * from './balance-service';
