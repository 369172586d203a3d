import { createHash } from 'node:crypto';
import { Database } from '../../database';

/**
 * How nearest neighbours are found: with pgvector's operators and HNSW indexes where the database
 * has the extension (embedded PGlite ships it; see migration KnowledgeVectorSearch), else by cosine
 * similarity computed in SQL over `real[]`. Both read the same `embedding real[]` column.
 */
export type NearestNeighbourMode = 'pgvector' | 'real[]';

/** pgvector's HNSW indexes `vector` of at most this many dimensions; longer vectors are compared without an index. */
const MAX_INDEXED_DIMENSIONS = 2000;

interface VectorState {
  readonly mode: Promise<{ readonly mode: NearestNeighbourMode; readonly iterativeScan: boolean }>;
  /** Indexes known to exist, by name. */
  readonly indexed: Set<string>;
}

/** Read once per database: the extension is created by a migration, or by an operator before a start. */
const states = new WeakMap<Database, VectorState>();

function stateOf(db: Database): VectorState {
  let state = states.get(db);
  if (!state) {
    const mode = db
      .query<{ extversion: string }>(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)
      .then(([row]) => ({
        mode: row ? ('pgvector' as const) : ('real[]' as const),
        // Iterative index scans (0.8): an HNSW scan filtered to one knowledge base keeps looking
        // past its first candidates instead of answering fewer passages than exist.
        iterativeScan: row !== undefined && versionAtLeast(row.extversion, [0, 8]),
      }));
    state = { mode, indexed: new Set() };
    states.set(db, state);
    mode.catch(() => states.delete(db));
  }
  return state;
}

function versionAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [a, b] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

export async function nearestNeighbourMode(db: Database): Promise<NearestNeighbourMode> {
  return (await stateOf(db).mode).mode;
}

export async function usesIterativeScan(db: Database): Promise<boolean> {
  return (await stateOf(db).mode).iterativeScan;
}

/** A model name as an SQL literal: partial indexes are matched against literal predicates only. */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The predicate that selects one model's vectors of one length, written the same way in the
 * index and in the search so the planner can use the index (it must see the same literals).
 */
export function vectorsOf(alias: string, model: string, dimensions: number): string {
  return `${alias}.embedding_model = ${sqlLiteral(model)} AND cardinality(${alias}.embedding) = ${dimensions}`;
}

export function indexNameOf(model: string, dimensions: number): string {
  return `knowledge_base_chunks_nn_${createHash('sha256').update(model).digest('hex').slice(0, 16)}_${dimensions}`;
}

/**
 * With pgvector: an HNSW index on the cast of `model`'s vectors of this length, made the first time
 * such vectors are stored (a model's length is known only then). Partial, so vectors of other
 * models or lengths never meet the cast. Without pgvector, or past HNSW's limit, nothing.
 */
export async function ensureNearestNeighbourIndex(db: Database, model: string, dimensions: number): Promise<void> {
  const state = stateOf(db);
  if (
    (await state.mode).mode !== 'pgvector' ||
    !Number.isInteger(dimensions) ||
    dimensions < 1 ||
    dimensions > MAX_INDEXED_DIMENSIONS
  )
    return;
  const name = indexNameOf(model, dimensions);
  if (state.indexed.has(name)) return;
  // Asked first: CREATE INDEX IF NOT EXISTS would lock the table against writes even when the index is there.
  const exists = await db.one<{ found: number }>(`SELECT 1 AS found FROM pg_class WHERE relname = $1`, [name]);
  if (!exists) {
    await db.query(
      `CREATE INDEX IF NOT EXISTS ${name} ON knowledge_base_chunks USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops)
       WHERE ${vectorsOf('knowledge_base_chunks', model, dimensions)}`,
    );
  }
  state.indexed.add(name);
}
