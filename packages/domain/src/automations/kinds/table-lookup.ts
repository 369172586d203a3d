import { requireId, requireText, StepKindRules } from './step-kind';

export interface TableLookupConfig {
  readonly table_id: number;
  readonly key_column: string;
  readonly value: string;
}

/** The data-table row whose key column holds the value; no such row (or table) is a missing record. */
export const TABLE_LOOKUP_STEP: StepKindRules<TableLookupConfig> = {
  checkConfig: (c, bad) => {
    requireId(c, 'table_id', bad);
    requireText(c, 'key_column', bad);
    requireText(c, 'value', bad);
  },
  classifyFailure: (reason) => (reason === 'record_gone' || reason === 'no_row' ? 'missing_record' : null),
};
