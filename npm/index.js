'use strict';
// The bloomfilter SQLite extension, prebuilt (lib/bloomfilter.so), and the
// call that loads it into a connection of better-sqlite3 or node:sqlite.
const fs = require('node:fs');
const path = require('node:path');

const LIBRARY = path.join(__dirname, 'lib', 'bloomfilter.so');

function getLoadablePath() {
  if (!fs.existsSync(LIBRARY)) {
    throw new Error(`bloomfilter-sqlite: ${LIBRARY} is missing; reinstall the package`);
  }
  return LIBRARY;
}

// better-sqlite3's Database loads extensions as it is; node:sqlite's
// DatabaseSync only when opened with { allowExtension: true }, and then only
// while enableLoadExtension(true) is on, which load() turns off again.
function load(db) {
  if (!db || typeof db.loadExtension !== 'function') {
    throw new TypeError('bloomfilter-sqlite: load(db) takes a better-sqlite3 Database or a ' +
                        'node:sqlite DatabaseSync');
  }
  const library = getLoadablePath();
  if (typeof db.enableLoadExtension === 'function') {
    db.enableLoadExtension(true);
    try {
      db.loadExtension(library);
    } finally {
      db.enableLoadExtension(false);
    }
  } else {
    db.loadExtension(library);
  }
  return db;
}

module.exports = { load, getLoadablePath };
