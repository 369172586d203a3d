import { CallAnalyticsReports, TOKENS } from '@voiceplane/application';
import { AnalyticsController } from '@voiceplane/adapter-http';
import { TypeormCallAnalyticsRepository } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/** The calls dashboard: figures the database computes over the account's calls. */
export const analyticsModule: ApiModule = ({ container: c, database }) => {
  c.bind(TOKENS.CallAnalyticsRepository).toConstantValue(new TypeormCallAnalyticsRepository(database));
  c.bind(TOKENS.CallAnalyticsReports)
    .toDynamicValue(() => new CallAnalyticsReports(c.get(TOKENS.CallAnalyticsRepository), c.get(TOKENS.Clock)))
    .inSingletonScope();
  c.bind(AnalyticsController).toSelf().inSingletonScope();
  return {};
};
