import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { BalanceService, CreateAccount, CryptoIds } from '@voiceplane/application';
import {
  createDataSource,
  Database,
  migrate,
  TypeormCredentialRepository,
  TypeormLedgerRepository,
  TypeormSigningSecretRepository,
  TypeormUserRepository,
} from '@voiceplane/adapter-typeorm';

const USAGE = `usage: node apps/cli/dist/main.js <command> [options]   (needs DATABASE_URL)
  migrate                                              apply pending migrations
  create-user --name N --email E [--password P] [--balance B]
  top-up --user ID --amount A --note "text"            credit (or, negative, correct) a balance`;

/** Operator commands against the production database (the embedded default migrates by itself). */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const url = process.env.DATABASE_URL;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (!url) {
    process.stderr.write('DATABASE_URL is required.\n');
    return 2;
  }
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'voiceplane-cli' });
  await dataSource.initialize();
  const db = new Database(dataSource);
  try {
    const users = new TypeormUserRepository(db);
    const ledger = new TypeormLedgerRepository(db);
    switch (command) {
      case 'migrate': {
        const applied = await migrate(dataSource);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
        return 0;
      }
      case 'create-user': {
        const { values } = parseArgs({
          args: rest,
          options: {
            name: { type: 'string' },
            email: { type: 'string' },
            password: { type: 'string' },
            balance: { type: 'string' },
          },
        });
        if (!values.name || !values.email) throw new Error('--name and --email are required');
        const create = new CreateAccount(
          db,
          users,
          new TypeormCredentialRepository(db),
          new TypeormSigningSecretRepository(db),
          ledger,
          new CryptoIds(),
        );
        const r = await create.execute({
          name: values.name,
          email: values.email,
          password: values.password ?? null,
          balance: Number(values.balance ?? 0),
        });
        if (!r.ok) throw new Error('a user with this email already exists');
        process.stdout.write(`user ${r.value.user.id} created; API key (shown once): ${r.value.apiKey.token}\n`);
        return 0;
      }
      case 'top-up': {
        const { values } = parseArgs({
          args: rest,
          options: { user: { type: 'string' }, amount: { type: 'string' }, note: { type: 'string' } },
        });
        const amount = Number(values.amount);
        if (!values.user || !Number.isFinite(amount) || amount === 0 || !values.note)
          throw new Error('--user, a non-zero --amount and --note are required');
        const entry = await new BalanceService(ledger).adjust(Number(values.user), amount, values.note, null);
        if (!entry) throw new Error('user not found');
        process.stdout.write(`balance is now ${entry.balanceAfter}\n`);
        return 0;
      }
      default:
        process.stderr.write(`unknown command: ${command}\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await dataSource.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
