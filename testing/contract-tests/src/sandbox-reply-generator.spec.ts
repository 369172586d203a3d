import { SandboxReplyGenerator } from '@voiceplane/adapter-sandbox';
import { replyGeneratorContract } from './reply-generator.contract';

replyGeneratorContract('sandbox', () => ({ generator: new SandboxReplyGenerator() }));
