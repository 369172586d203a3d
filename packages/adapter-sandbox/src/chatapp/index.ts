export * from './sandbox-chatapp-provider';
export * from './sandbox-reply-generator';
