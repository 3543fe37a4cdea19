// Chooses the Store adapter from configuration: MongoDB when a URI is configured, else the
// embedded SQLite file.
import { MongoStore } from "./mongo.js";
import type { Store } from "./port.js";
import { SqliteStore } from "./sqlite.js";

export interface StoreConfig {
  /** MongoDB connection string (VERDICT_MONGODB_URI); unset or empty: the embedded store. */
  mongodbUri?: string | undefined;
  /** Database name (VERDICT_MONGODB_DATABASE); default: the URI's, else "verdict". */
  mongodbDatabase?: string | undefined;
  /** The embedded store's SQLite file. */
  sqliteFile: string;
  /** The embedded store's file is this process's alone (the all-in-one process). */
  sqliteExclusive?: boolean;
}

export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.mongodbUri) {
    return new MongoStore({
      uri: config.mongodbUri,
      ...(config.mongodbDatabase ? { database: config.mongodbDatabase } : {}),
    }).connect();
  }
  return new SqliteStore(config.sqliteFile, { exclusive: config.sqliteExclusive ?? false });
}
