export { OpenAiReplyGenerator, ReplyGeneratorError, type OpenAiOptions } from './openai-reply-generator';
