export * from "./port.js";
export { SqliteStore, StoreLockedError, type SqliteStoreOptions } from "./sqlite.js";
export { MongoStore, type MongoStoreOptions } from "./mongo.js";
export { createStore, type StoreConfig } from "./factory.js";
export { storableKeys, storedKeys } from "./keys.js";
export {
  collectionDef,
  ensureDeclaredIndexes,
  openCollections,
  type CollectionDef,
  type CollectionDefs,
  type Collections,
} from "./collections.js";
