import { parse as parseCsv } from 'csv-parse/sync';
import { ImportRow } from '@voiceplane/application';
import { FieldErrors } from '@voiceplane/domain';
import type { UploadedFile } from '../../pipeline/multipart';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { Arr, Bool, validateDto } from '../../validation';
import { isPlainObject } from '../../validation/validate';
import { importedLead } from './lead-body';

const MAX_ROWS = 10_000;
const PHONE_COLUMNS = ['phone_number', 'phone'];
const NOT_CSV: FieldErrors = { file: ['The file must be a CSV file.'] };

export class LeadImportBody {
  @Arr(undefined, {
    min: 1,
    max: MAX_ROWS,
    description: 'Lead create bodies without campaign_id (JSON); or send multipart/form-data with a CSV `file`',
  })
  leads?: unknown[];
  @Bool({ description: 'Multipart only: import numbers the campaign already has' }) allow_dupplicate?: boolean;
}

class CsvFlags {
  @Bool() allow_dupplicate?: boolean;
  @Bool() allow_duplicate?: boolean;
}

/** The rows of an import: JSON `leads`, or a CSV upload (header row; a phone column, every other column a variable). */
export function importRows(body: unknown, upload: UploadedFile | undefined): ImportRow[] {
  if (upload) return csvRows(body, upload);
  const shaped = validateDto(LeadImportBody, body);
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  if (shaped.value.leads === undefined) refuse(validationAnswer({ leads: ['The leads field is required.'] }));
  return shaped.value.leads.map((item) => importedLead(item));
}

function csvRows(fields: unknown, upload: UploadedFile): ImportRow[] {
  const flags = validateDto(CsvFlags, isPlainObject(fields) ? fields : {});
  if (!flags.ok) refuse(validationAnswer(flags.errors));
  const allowDuplicate = flags.value.allow_dupplicate ?? flags.value.allow_duplicate ?? false;
  const records = readCsv(upload.bytes);
  if (records === null || records.length === 0) refuse(validationAnswer(NOT_CSV));
  const [header, ...data] = records;
  const columns = header.map((name) => name.trim());
  const phoneAt = columns.findIndex((name) => PHONE_COLUMNS.includes(name.toLowerCase()));
  if (phoneAt < 0) refuse(validationAnswer({ file: ['The file must have a phone_number column.'] }));
  if (data.length === 0) refuse(validationAnswer({ file: ['The file must hold at least one lead.'] }));
  if (data.length > MAX_ROWS)
    refuse(validationAnswer({ file: [`The file may not hold more than ${MAX_ROWS} leads.`] }));
  return data.map((cells) => {
    // Cells are text exactly as written: nothing here evaluates a formula.
    const variables = Object.fromEntries(
      columns.flatMap((name, i) =>
        i === phoneAt || name === '' || cells[i] === undefined || cells[i] === '' ? [] : [[name, cells[i]]],
      ),
    );
    return importedLead({ phone_number: cells[phoneAt] ?? '', variables }, allowDuplicate);
  });
}

/** UTF-8 (a BOM is dropped), comma or semicolon, quotes doubled inside quotes; null when it is not CSV text. */
function readCsv(bytes: Buffer): string[][] | null {
  const text = bytes.toString('utf8');
  if (text.includes('\u0000') || text.includes('\ufffd')) return null;
  try {
    return parseCsv(text, {
      bom: true,
      delimiter: [',', ';'],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: false,
    }) as string[][];
  } catch {
    return null;
  }
}
