export { AnalyticsController } from './analytics-controller';
