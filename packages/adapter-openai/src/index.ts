export { OpenAiReplyGenerator, ReplyGeneratorError, type OpenAiOptions } from './openai-reply-generator';
export { EmbeddingsError, OpenAiEmbeddings, type EmbeddingsOptions } from './openai-embeddings';
