import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';

export interface UploadedFile {
  readonly fieldName: string;
  readonly fileName: string;
  readonly contentType: string | null;
  readonly bytes: Buffer;
}

/** The text fields and the first file of a `multipart/form-data` body already read into memory. */
export function parseMultipart(
  raw: Buffer,
  headers: IncomingHttpHeaders,
): Promise<{ fields: Record<string, string>; file: UploadedFile | null } | null> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: 1, fields: 50, fieldSize: 1024 * 1024 } });
    } catch {
      resolve(null);
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | null = null;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        file = {
          fieldName,
          fileName: info.filename ?? '',
          contentType: info.mimeType || null,
          bytes: Buffer.concat(chunks),
        };
      });
    });
    parser.on('error', () => resolve(null));
    parser.on('close', () => resolve({ fields, file }));
    parser.end(raw);
  });
}
