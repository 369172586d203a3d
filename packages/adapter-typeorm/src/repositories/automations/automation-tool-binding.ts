import { AutomationToolBinding, AutomationToolFields } from '@voiceplane/application';
import { Database } from '../../database';
import { ToolRecord } from '../../records';
import { Count, num } from '../rows';

const schemaOf = (fields: AutomationToolFields) => [
  { name: fields.inputField, type: 'string', description: `Value of ${fields.keyColumn} to look up`, required: true },
];

/** The `type: automation` tool of a `midcall_lookup_table` automation, attached to its assistant. */
export class TypeormAutomationToolBinding implements AutomationToolBinding {
  constructor(private readonly db: Database) {}

  async attachedToolNames(assistantId: number, exceptToolId: number | null = null): Promise<string[]> {
    const rows = await this.db.query<Pick<ToolRecord, 'name'>>(
      `SELECT t.name FROM assistant_tools a JOIN tools t ON t.id = a.tool_id WHERE a.assistant_id = $1 AND t.id IS DISTINCT FROM $2`,
      [assistantId, exceptToolId],
    );
    return rows.map((r) => r.name);
  }

  async countTools(userId: number): Promise<number> {
    return num((await this.db.one<Count>(`SELECT count(*) AS n FROM tools WHERE user_id = $1`, [userId]))?.n);
  }

  createAndAttach(
    userId: number,
    assistantId: number,
    automationId: string,
    fields: AutomationToolFields,
    limit: number,
  ): Promise<number | null> {
    return this.db.transaction(async () => {
      // Same serialisation as tool creation through the API: the account row.
      await this.db.one(`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
      if ((await this.countTools(userId)) >= limit) return null;
      const tool = await this.db.one<Pick<ToolRecord, 'id'>>(
        `INSERT INTO tools (user_id, name, description, type, endpoint, method, body_format, schema, automation_id)
         VALUES ($1, $2, $3, 'automation', $4, 'POST', 'json', $5::jsonb, $6) RETURNING id`,
        [userId, fields.name, fields.description, fields.endpoint, JSON.stringify(schemaOf(fields)), automationId],
      );
      const toolId = num(tool?.id);
      await this.db.query(
        `INSERT INTO assistant_tools (assistant_id, tool_id, position)
         VALUES ($1, $2, (SELECT coalesce(max(position), -1) + 1 FROM assistant_tools WHERE assistant_id = $1))`,
        [assistantId, toolId],
      );
      return toolId;
    });
  }

  async updateTool(toolId: number, fields: AutomationToolFields): Promise<void> {
    await this.db.query(
      `UPDATE tools SET name = $2, description = $3, endpoint = $4, schema = $5::jsonb, updated_at = now() WHERE id = $1`,
      [toolId, fields.name, fields.description, fields.endpoint, JSON.stringify(schemaOf(fields))],
    );
  }

  async deleteTool(toolId: number): Promise<void> {
    // assistant_tools rows go with it (ON DELETE CASCADE).
    await this.db.query(`DELETE FROM tools WHERE id = $1`, [toolId]);
  }
}
