import {
  AdministerAssistants,
  AssistantQueries,
  AssistantWebhooks,
  ChangeAssistantStatus,
  DeleteAssistant,
  ManageFolders,
  ReferenceData,
  SaveAssistant,
  TOKENS,
} from '@voiceplane/application';
import {
  AssistantAdminController,
  AssistantController,
  AssistantWebhookController,
  FolderController,
  LabelController,
  ReferenceDataController,
} from '@voiceplane/adapter-http';
import {
  TypeormAssistantRepository,
  TypeormCatalogRepository,
  TypeormEventTypeRepository,
  TypeormFolderRepository,
} from '@voiceplane/adapter-typeorm';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { ApiModule } from './module';

/** Assistants, the reference catalogue, folders and labels (issue: Assistants, reference data and folders). */
export const assistantsModule: ApiModule = ({ container: c, config, database }) => {
  const targetPolicy: TargetUrlPolicy = {
    allowPrivate: config.allowPrivateTargets,
    requireHttps: config.requireHttpsTargets,
  };
  c.bind(TOKENS.AssistantRepository)
    .toDynamicValue((ctx) => new TypeormAssistantRepository(database, ctx.get(TOKENS.Outbox)))
    .inSingletonScope();
  c.bind(TOKENS.CatalogRepository).toConstantValue(new TypeormCatalogRepository(database));
  c.bind(TOKENS.FolderRepository).toConstantValue(new TypeormFolderRepository(database, 'folders'));
  c.bind(TOKENS.LabelRepository).toConstantValue(new TypeormFolderRepository(database, 'labels'));
  c.bind(TOKENS.EventTypeRepository).toConstantValue(new TypeormEventTypeRepository(database));
  c.bind(TOKENS.SaveAssistant)
    .toDynamicValue(
      (ctx) =>
        new SaveAssistant(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.AssistantRepository),
          ctx.get(TOKENS.CatalogRepository),
          targetPolicy,
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ChangeAssistantStatus)
    .toDynamicValue((ctx) => new ChangeAssistantStatus(ctx.get(TOKENS.AssistantRepository), ctx.get(TOKENS.UnitOfWork)))
    .inSingletonScope();
  c.bind(TOKENS.AssistantWebhooks)
    .toDynamicValue(
      (ctx) => new AssistantWebhooks(ctx.get(TOKENS.AssistantRepository), targetPolicy, ctx.get(TOKENS.UnitOfWork)),
    )
    .inSingletonScope();
  c.bind(TOKENS.DeleteAssistant)
    .toDynamicValue(
      (ctx) =>
        new DeleteAssistant(ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.AssistantRepository), ctx.get(TOKENS.Outbox)),
    )
    .inSingletonScope();
  c.bind(TOKENS.AssistantQueries)
    .toDynamicValue((ctx) => new AssistantQueries(ctx.get(TOKENS.AssistantRepository)))
    .inSingletonScope();
  c.bind(TOKENS.ReferenceData)
    .toDynamicValue((ctx) => new ReferenceData(ctx.get(TOKENS.CatalogRepository), ctx.get(TOKENS.EventTypeRepository)))
    .inSingletonScope();
  c.bind(TOKENS.AdministerAssistants)
    .toDynamicValue(
      (ctx) =>
        new AdministerAssistants({
          assistants: ctx.get(TOKENS.AssistantRepository),
          knowledgeBases: ctx.get(TOKENS.KnowledgeBaseRepository),
          eventTypes: ctx.get(TOKENS.EventTypeRepository),
          uow: ctx.get(TOKENS.UnitOfWork),
          users: ctx.get(TOKENS.UserRepository),
        }),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageFolders)
    .toDynamicValue((ctx) => new ManageFolders(ctx.get(TOKENS.FolderRepository), ctx.get(TOKENS.UnitOfWork)))
    .inSingletonScope();
  c.bind(TOKENS.ManageLabels)
    .toDynamicValue((ctx) => new ManageFolders(ctx.get(TOKENS.LabelRepository), ctx.get(TOKENS.UnitOfWork)))
    .inSingletonScope();
  for (const controller of [
    AssistantController,
    AssistantWebhookController,
    ReferenceDataController,
    FolderController,
    LabelController,
    AssistantAdminController,
  ])
    c.bind(controller).toSelf().inSingletonScope();
  return {};
};
