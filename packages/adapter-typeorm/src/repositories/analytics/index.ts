export { TypeormCallAnalyticsRepository } from './call-analytics-repository';
