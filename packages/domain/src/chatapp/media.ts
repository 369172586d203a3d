/** Freeform media: the kind is taken from the fetched `Content-Type`. */
export const MEDIA_TYPES = ['image', 'audio', 'video', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** `image/*`, `audio/*`, `video/*`; anything else (a missing type included) is a document. */
export function mediaTypeOf(contentType: string | null): MediaType {
  const essence = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (essence.startsWith('image/')) return 'image';
  if (essence.startsWith('audio/')) return 'audio';
  if (essence.startsWith('video/')) return 'video';
  return 'document';
}

/** The `message` becomes the caption of images, videos and documents; for audio it is dropped (not stored). */
export function mediaCaption(mediaType: MediaType, message: string | null): string | null {
  return mediaType === 'audio' ? null : message;
}
