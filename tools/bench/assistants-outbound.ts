/**
 * GET /api/user/assistants/outbound for a user with 200 outbound assistants (and 50 inbound ones
 * the list must skip), against a bare express + pg handler doing the operation's own queries (token lookup,
 * the outbound select; no rate-limit write) on the same database, in the same run.
 *   npx tsc -b && node tools/dist/bench/assistants-outbound.js     (DATABASE_URL=… for real PostgreSQL)
 */
import express from 'express';
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { bareAuthenticate } from './lib/bare-auth';
import { benchUser, startComposedApi } from './lib/composed-api';

const OUTBOUND = 200;
const INBOUND = 50;

async function createAssistants(url: string, token: string): Promise<void> {
  const prompt =
    'You are a friendly assistant for Acme Inc. Confirm the appointment, answer questions about opening hours, and keep answers short. '.repeat(
      4,
    );
  for (let i = 0; i < OUTBOUND + INBOUND; i++) {
    const res = await fetch(`${url}/api/user/assistant`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Assistant ${i}`,
        type: i < OUTBOUND ? 'outbound' : 'inbound',
        timezone: 'Europe/Berlin',
        initial_message: 'Hello! This is Acme calling about your appointment.',
        system_prompt: prompt,
        variables: { company: 'Acme', region: 'EU', agent_index: i },
        webhook_url: i % 2 ? 'https://hooks.example.com/calls' : null,
        is_webhook_active: i % 2 === 1,
      }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };
  await createAssistants(api.url, user.token);

  // The composed api's pool size (harness: 20 on PostgreSQL, 8 on embedded PGlite, whose socket
  // server takes 16 connections in all).
  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const bare = express();
  bare.get('/outbound', async (req, res) => {
    try {
      await bareOutbound(req, res);
    } catch {
      if (!res.headersSent) res.status(500).json({ message: 'Server error.' });
    }
  });
  async function bareOutbound(req: express.Request, res: express.Response): Promise<void> {
    const principal = await bareAuthenticate(pool, req);
    if (!principal) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    const rows = await pool.query(
      `SELECT id, user_id, name, type, mode, status, voice_id, language_id, timezone, initial_message, system_prompt, variables,
              webhook_url, is_webhook_active, created_at, updated_at
         FROM assistants WHERE user_id = $1 AND type = 'outbound' ORDER BY id`,
      [principal.user_id],
    );
    res.json(
      rows.rows.map((r) => ({
        id: Number(r.id),
        user_id: Number(r.user_id),
        name: r.name,
        type: r.type,
        mode: r.mode,
        status: r.status,
        voice_id: r.voice_id,
        language_id: r.language_id,
        timezone: r.timezone,
        initial_message: r.initial_message,
        system_prompt: r.system_prompt,
        variables: r.variables,
        webhook_url: r.webhook_url,
        is_webhook_active: r.is_webhook_active,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
      })),
    );
  }
  const baseline = await listen(bare);

  // Same answer from both, or the comparison means nothing.
  const [ours, theirs] = await Promise.all([
    fetch(`${api.url}/api/user/assistants/outbound`, { headers }).then((r) => r.json()),
    fetch(`${baseline.url}/outbound`, { headers }).then((r) => r.json()),
  ]);
  if (JSON.stringify(ours) !== JSON.stringify(theirs) || (ours as unknown[]).length !== OUTBOUND)
    throw new Error('voiceplane and the baseline disagree');

  const subject = await measure(
    `voiceplane GET /assistants/outbound`,
    `${api.url}/api/user/assistants/outbound`,
    headers,
  );
  const base = await measure('bare express + pg (own reads only)', `${baseline.url}/outbound`, headers);
  report(`GET /api/user/assistants/outbound (${OUTBOUND} outbound + ${INBOUND} inbound assistants)`, subject, base);

  await baseline.close();
  await pool.end();
  await api.close();
  await db.close();
}

runBench(main);
