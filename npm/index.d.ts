/** A connection that can load an SQLite extension: better-sqlite3's Database or node:sqlite's DatabaseSync. */
export interface ExtensionLoader {
  loadExtension(path: string, entryPoint?: string): unknown;
  enableLoadExtension?(allow: boolean): void;
}
/** Loads the bloomfilter functions into db and returns db. */
export function load<T extends ExtensionLoader>(db: T): T;
/** The absolute path of the prebuilt extension (lib/bloomfilter.so). */
export function getLoadablePath(): string;
