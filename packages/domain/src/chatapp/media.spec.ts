import { mediaCaption, mediaTypeOf } from './media';

describe('freeform media type', () => {
  it.each([
    ['image/jpeg', 'image'],
    ['Image/PNG; charset=binary', 'image'],
    ['audio/ogg', 'audio'],
    ['video/mp4', 'video'],
    ['application/pdf', 'document'],
    ['text/plain', 'document'],
    [null, 'document'],
  ] as const)('%p → %s', (contentType, type) => {
    expect(mediaTypeOf(contentType)).toBe(type);
  });

  it.each([
    ['image', 'Look', 'Look'],
    ['video', 'Look', 'Look'],
    ['document', 'Invoice', 'Invoice'],
    ['audio', 'ignored', null],
  ] as const)('%s caption of %p is %p', (type, message, caption) => {
    expect(mediaCaption(type, message)).toBe(caption);
  });
});
