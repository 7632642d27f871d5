// Writes a Parquet file with DuckDB, a real Parquet writer, and prints as JSON
// the split-block Bloom filter bitset of each column chunk plus DuckDB's own
// answer (parquet_bloom_probe) for every probe value.
//   node write_parquet.mjs OUT.parquet
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const path = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
// Repeated values: DuckDB writes Bloom filters for dictionary-encoded chunks.
await c.run(`COPY (SELECT (i % 700)::BIGINT * 37 - 5000 AS k, 'key-' || (i % 400) || '-é' AS t
                   FROM range(0, 50000) r(i))
             TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`);
const meta = (await c.runAndReadAll(
  `SELECT path_in_schema, bloom_filter_offset, bloom_filter_length
     FROM parquet_metadata('${path}') ORDER BY path_in_schema`)).getRowObjects();
const file = readFileSync(path);

// The filter is a Thrift compact BloomFilterHeader, then the bitset; the
// header's first field (i32 numBytes, zigzag varint) gives the bitset length.
function bitset(offset, length) {
  const region = file.subarray(Number(offset), Number(offset) + Number(length));
  if (region[0] !== 0x15) throw new Error(`unexpected Thrift field header ${region[0]}`);
  let value = 0, shift = 0, i = 1;
  for (;; i++) {
    value |= (region[i] & 0x7f) << shift;
    if (!(region[i] & 0x80)) break;
    shift += 7;
  }
  const numBytes = (value >>> 1) ^ -(value & 1);
  return region.subarray(region.length - numBytes).toString('hex');
}

const out = { columns: {} };
for (const m of meta) {
  if (m.bloom_filter_offset === null) throw new Error(`no bloom filter for ${m.path_in_schema}`);
  out.columns[m.path_in_schema] = { bitset: bitset(m.bloom_filter_offset, m.bloom_filter_length) };
}
// DuckDB's verdict for members and non-members: excluded means "absent".
async function probe(column, sqlValue) {
  const r = (await c.runAndReadAll(
    `SELECT bloom_filter_excludes FROM parquet_bloom_probe('${path}', '${column}', ${sqlValue})`)).getRowObjects();
  return !r[0].bloom_filter_excludes;
}
out.columns.k.probes = [];
for (let v = -6000; v <= 30000; v += 7) out.columns.k.probes.push([v, await probe('k', `${v}::BIGINT`)]);
out.columns.t.probes = [];
for (let i = 0; i < 1200; i++) {
  const v = `key-${i}-é`;
  out.columns.t.probes.push([v, await probe('t', `'${v}'`)]);
}
console.log(JSON.stringify(out));
