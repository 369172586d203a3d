import { token } from '../common';
import type { CallAnalyticsReports } from './call-analytics-report';
import type { CallAnalyticsRepository } from './ports';

export const ANALYTICS_TOKENS = {
  CallAnalyticsRepository: token<CallAnalyticsRepository>('CallAnalyticsRepository'),
  CallAnalyticsReports: token<CallAnalyticsReports>('CallAnalyticsReports'),
} as const;
