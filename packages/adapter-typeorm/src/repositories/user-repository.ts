import { completePlan, Plan, User } from '@voiceplane/domain';
import { NewUser, Page, PageRequest, UserRepository } from '@voiceplane/application';
import { Database } from '../database';
import { UserRecord } from '../records';
import { isUniqueViolation, num, pageClause } from './rows';

/** Every column of the record: the rows below are whole `UserRecord`s. */
const COLUMNS = 'id, name, email, password_hash, disabled, balance, plan, created_at, updated_at';

function toUser(r: UserRecord): User {
  return {
    id: num(r.id),
    name: r.name,
    email: r.email,
    passwordHash: r.password_hash,
    disabled: r.disabled,
    balance: num(r.balance),
    plan: completePlan(r.plan as Partial<Plan>),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class TypeormUserRepository implements UserRepository {
  constructor(private readonly db: Database) {}

  async create(user: NewUser): Promise<User | null> {
    try {
      // A savepoint keeps a duplicate e-mail from poisoning the caller's transaction.
      return await this.db.manager.transaction(async (m) => {
        const rows = await m.query<UserRecord[]>(
          `INSERT INTO users (name, email, password_hash, plan) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
          [user.name, user.email, user.passwordHash, JSON.stringify(user.plan)],
        );
        return toUser(rows[0]);
      });
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async findById(id: number): Promise<User | null> {
    // Prepared: every authenticated `GET /api/user/me` reads the caller's row.
    const r = await this.db.one<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id], { prepared: true });
    return r ? toUser(r) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    // Raw SQL: lower(email) is what the expression index users_email_lower_uq serves.
    const r = await this.db.one<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
    return r ? toUser(r) : null;
  }

  async list(page: PageRequest, email?: string): Promise<Page<User>> {
    const where = email ? 'WHERE lower(email) = lower($1)' : '';
    const params: unknown[] = email ? [email] : [];
    const limit = pageClause(page, params.length + 1);
    const [rows, count] = await Promise.all([
      this.db.query<UserRecord>(`SELECT ${COLUMNS} FROM users ${where} ORDER BY id DESC ${limit.sql}`, [
        ...params,
        ...limit.params,
      ]),
      this.db.one<{ n: string }>(`SELECT count(*) AS n FROM users ${where}`, params),
    ]);
    return { items: rows.map(toUser), total: num(count?.n) };
  }

  async updatePlan(id: number, plan: Plan): Promise<void> {
    await this.db.query(`UPDATE users SET plan = $2, updated_at = now() WHERE id = $1`, [id, JSON.stringify(plan)]);
  }

  async setDisabled(id: number, disabled: boolean): Promise<void> {
    await this.db.query(`UPDATE users SET disabled = $2, updated_at = now() WHERE id = $1`, [id, disabled]);
  }

  async lockBalance(id: number): Promise<number | null> {
    // Raw SQL: a row lock serialises the balance changes of one account. NO KEY UPDATE, like the
    // balance update itself: it excludes every other locker of the account, but not the rows other
    // transactions insert that merely reference the account (their foreign-key check takes KEY
    // SHARE). With FOR UPDATE, an inbound message holding its conversation and inserting its
    // message row would wait for a send holding the balance and waiting for that conversation.
    const r = await this.db.one<Pick<UserRecord, 'balance'>>(
      `SELECT balance FROM users WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
      { prepared: true },
    );
    return r ? num(r.balance) : null;
  }
}
