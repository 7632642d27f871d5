#!/usr/bin/env bash
# scope: each major
# Scale out, part 2: the Bloom-join recipe across two real servers with
# postgres_fdw (two clusters on loopback ports, tools/pgclusters.sh).
#
# The remote server holds sales (1,000,000 rows); the local one holds
# customers (1% of them vip) and a foreign table over sales.  The plain join
# fetches every sales row; the recipe ships the filter of the vip customers
# once, as a query parameter, and the remote returns only the rows that pass
# it.  Asserted: the remote SQL carries bloom_contains, rows shipped are at
# least the matches and at most the matches plus twice the expected false
# positives, both joins give the same answer, and a filter too large for
# the protocol fails with a clear error while the connection stays up.
# The automatic Bloom join (the library in session_preload_libraries): the
# plain join's remote SQL carries the runtime filter, the same answer, and
# rows shipped between the matches and twice them (all of them with
# bloomfilter.runtime_filter off).
# Remote filters never in a remote query that keeps some of its rows (a
# pushed-down LIMIT or OFFSET, under DISTINCT ON or a window): the same
# answers as with the filters off.  A remote server with the extension in
# another schema: the join works with the filter on (and gets none); a
# foreign table over a remote view (no ctid to ask with): none for it, while
# the server's other tables keep theirs.
# Text, varchar and char(n) keys and joins on two keys: one remote filter
# per key where the remote database has the local encoding (the answers as
# with the filters off, fewer rows shipped); none for a text key of a
# LATIN1 remote database or under a nondeterministic collation (the same
# answers), while its integer key keeps its filter.
# Printed, not asserted: rows, bytes and time of the joins.
# Ends with "fdw: N passed, M failed" and exits non-zero on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin fdw
pg_use
. tools/pgclusters.sh
pgc_setup fdw
pgc_start remote || { fail "start of the remote server"; tl_end; }
pgc_start local || { fail "start of the local server"; tl_end; }

pgc_psql remote <<'SQL' || { fail "remote setup"; tl_end; }
CREATE EXTENSION bloomfilter;
CREATE TABLE sales (id int8, customer_id int8, amount numeric);
INSERT INTO sales SELECT g, (g::int8 * 7919) % 200000, (g % 1000) / 10.0 FROM generate_series(1, 1000000) g;
ANALYZE sales;
SQL
pgc_psql local <<SQL || { fail "local setup"; tl_end; }
CREATE EXTENSION bloomfilter;
CREATE EXTENSION postgres_fdw;
CREATE TABLE customers (id int8 PRIMARY KEY, vip bool);
INSERT INTO customers SELECT g, g % 100 = 42 FROM generate_series(0, 199999) g;
ANALYZE customers;
CREATE SERVER warehouse FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '$(pgc_port remote)', dbname 'postgres', extensions 'bloomfilter');
CREATE USER MAPPING FOR CURRENT_USER SERVER warehouse OPTIONS (user 'postgres');
CREATE FOREIGN TABLE sales_remote (id int8, customer_id int8, amount numeric)
    SERVER warehouse OPTIONS (table_name 'sales');
SQL
pass "two servers on loopback ports, postgres_fdw with extensions 'bloomfilter'"

plain="SELECT count(*), sum(s.amount) FROM sales_remote s JOIN customers c ON c.id = s.customer_id WHERE c.vip"
recipe="SELECT count(*), sum(s.amount) FROM sales_remote s JOIN customers c ON c.id = s.customer_id
WHERE c.vip AND bloom_contains((SELECT bloom_agg(id) FROM customers WHERE vip), s.customer_id)"

# EXPLAIN evidence: the condition runs on the remote server.
pgc_psql local -At -c "EXPLAIN (VERBOSE, COSTS OFF) $recipe" > $TL_OUT/explain.txt
if grep -m1 'Remote SQL: .*bloom_contains(\$1::public.bloom, customer_id)' $TL_OUT/explain.txt; then
    pass "the filter travels as a parameter and the remote server applies it"
else
    cat $TL_OUT/explain.txt
    fail "EXPLAIN shows no bloom_contains in the remote SQL"
fi

# Same answer.
a=$(pgc_psql local -At -c "$plain")
b=$(pgc_psql local -At -c "$recipe")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "same answer with and without the filter ($a)" ||
    fail "the recipe's answer ($b) differs from the plain join's ($a)"

# Rows shipped: the foreign scan's actual rows (EXPLAIN ANALYZE), twice each, the second timed.
shipped() { # QUERY -> "rows ms"
    pgc_psql local -At -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" > /dev/null
    pgc_psql local -At -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c '
import json, sys
plan = json.load(sys.stdin)[0]
def scans(node):
    if node.get("Node Type") == "Foreign Scan":
        yield node
    for child in node.get("Plans", []):
        yield from scans(child)
rows = sum(n["Actual Rows"] * n["Actual Loops"] for n in scans(plan["Plan"]))
print(round(rows), round(plan["Execution Time"], 1))  # 18 on: fractional rows'
}
read -r plain_rows plain_ms <<< "$(shipped "$plain")"
read -r recipe_rows recipe_ms <<< "$(shipped "$recipe")"
read -r matches expected_fp filter_bytes filter_text_bytes <<< "$(pgc_psql local -At -F ' ' -c "
WITH f AS (SELECT bloom_agg(id) AS f FROM customers WHERE vip),
     m AS (SELECT count(*) AS n FROM sales_remote s JOIN customers c ON c.id = s.customer_id WHERE c.vip)
SELECT m.n, round((1000000 - m.n) * bloom_fpr(f.f)), octet_length(f.f::bytea), octet_length(f.f::text)
FROM f, m")"
read -r plain_bytes recipe_bytes <<< "$(pgc_psql local -At -F ' ' -c "
SELECT (SELECT sum(octet_length(s::text)) FROM sales_remote s),
       (SELECT sum(octet_length(s::text)) FROM sales_remote s
        WHERE bloom_contains((SELECT bloom_agg(id) FROM customers WHERE vip), s.customer_id))")"
note "plain join:  rows shipped $plain_rows, bytes of those rows (text) $plain_bytes, $plain_ms ms"
note "Bloom join:  rows shipped $recipe_rows, bytes $recipe_bytes + the filter $filter_text_bytes as text ($filter_bytes binary), $recipe_ms ms"
note "matches $matches, expected false positives $expected_fp, time ratio $(python3 -c "print(round($recipe_ms / $plain_ms, 2))")x"
if [ "${plain_rows:-0}" -eq 1000000 ] && [ "${recipe_rows:-0}" -ge "${matches:-1}" ] &&
   [ "$recipe_rows" -le $((matches + 2 * expected_fp)) ]; then
    pass "rows shipped: $recipe_rows, within matches $matches + 2 x expected false positives $expected_fp (plain join: $plain_rows)"
else
    fail "rows shipped $recipe_rows for $matches matches, $expected_fp expected false positives (plain: $plain_rows)"
fi

# The automatic Bloom join: with the library loaded in the session
# (session_preload_libraries), the plain join gets a runtime filter that
# travels to the remote scan as a parameter.
auto() { PGOPTIONS="-c session_preload_libraries=bloomfilter" pgc_psql local -At "$@"; }
auto -c "EXPLAIN (VERBOSE, COSTS OFF) $plain" > $TL_OUT/explain-auto.txt
if grep -m1 'Remote SQL: .*bloom_contains(\$1::public.bloom, customer_id)' $TL_OUT/explain-auto.txt &&
   grep -q 'Custom Scan (BloomFilterBuild)' $TL_OUT/explain-auto.txt; then
    pass "automatic: the plain join's remote SQL carries the runtime filter, built under the Hash node"
else
    cat $TL_OUT/explain-auto.txt
    fail "automatic: no runtime filter in the remote SQL of the plain join"
fi
c=$(auto -c "$plain")
[ -n "$c" ] && [ "$c" = "$a" ] && pass "automatic: the same answer as without it ($c)" ||
    fail "automatic: the answer ($c) differs from the plain join's ($a)"
auto_shipped() { # SETTINGS -> "rows ms"
    PGOPTIONS="-c session_preload_libraries=bloomfilter $1" shipped "$plain"
}
read -r off_rows off_ms <<< "$(auto_shipped "-c bloomfilter.runtime_filter=off")"
read -r on_rows on_ms <<< "$(auto_shipped "")"
note "automatic, runtime filter off: rows shipped $off_rows, $off_ms ms"
note "automatic, runtime filter on:  rows shipped $on_rows, $on_ms ms ($(python3 -c "print(round($on_ms / $off_ms, 2))")x), matches $matches"
if [ "${off_rows:-0}" -eq 1000000 ] && [ "${on_rows:-0}" -ge "${matches:-1}" ] &&
   [ "$on_rows" -le $((2 * matches)) ]; then
    pass "automatic: rows shipped $on_rows, within the matches $matches and twice them (off: $off_rows)"
else
    fail "automatic: rows shipped $on_rows for $matches matches (off: $off_rows)"
fi

# A remote filter only where dropping a row cannot let another in:
# postgres_fdw pushes a LIMIT or OFFSET into the scan of a table (no Limit
# node left in the local plan), and a filter in that remote query's WHERE
# would run before the LIMIT.  Each join has the answer it has with the
# filters off, and no bloom_contains in a remote query that limits its rows.
pgc_psql remote <<'SQL' || fail "remote setup of the LIMIT joins"
CREATE TABLE fa AS SELECT g AS id, (g * 7919) % 6000 AS k4 FROM generate_series(1, 60000) g;
ANALYZE fa;
SQL
pgc_psql local <<'SQL' || fail "local setup of the LIMIT joins"
CREATE FOREIGN TABLE fa_r (id int, k4 int) SERVER warehouse OPTIONS (table_name 'fa');
CREATE TABLE dim_m AS SELECT g AS k4, g % 20 = 0 AS sel FROM generate_series(0, 5999) g;
ANALYZE dim_m;
SQL
limited=(
    "SELECT count(*) FROM (SELECT * FROM fa_r ORDER BY id LIMIT 1000) s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
    "SELECT count(*) FROM (SELECT * FROM fa_r ORDER BY id OFFSET 59000) s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
    "SELECT count(*) FROM (SELECT * FROM (SELECT * FROM fa_r) x ORDER BY id LIMIT 1000) s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
    "SELECT count(*) FROM (SELECT * FROM fa_r ORDER BY id LIMIT 2000 OFFSET 500) s WHERE s.k4 IN (SELECT k4 FROM dim_m WHERE sel)"
    "SELECT count(*) FROM (SELECT DISTINCT ON (id / 100) * FROM fa_r ORDER BY id / 100, id) s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
    "SELECT count(*) FROM (SELECT *, row_number() OVER (ORDER BY id) AS rn FROM fa_r) s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel AND s.rn <= 1000"
)
for q in "${limited[@]}"; do
    off=$(auto -c "SET bloomfilter.runtime_filter = off" -c "$q")
    on=$(auto -c "$q")
    auto -c "EXPLAIN (VERBOSE, COSTS OFF) $q" > $TL_OUT/explain-limited.txt
    if [ -n "$off" ] && [ "$on" = "$off" ] &&
       ! grep -E 'Remote SQL: .*bloom_contains.*(LIMIT|OFFSET)' $TL_OUT/explain-limited.txt; then
        pass "a join over a remote query that keeps some of its rows: $on rows with the filters on and off ($q)"
    else
        cat $TL_OUT/explain-limited.txt
        fail "a join over a remote query that keeps some of its rows: $on rows with the filters on, $off off ($q)"
    fi
done
# The plain join of those tables still gets its remote filter.
q="SELECT count(*) FROM fa_r s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
auto -c "EXPLAIN (VERBOSE, COSTS OFF) $q" > $TL_OUT/explain-unlimited.txt
if grep -q 'Remote SQL: .*bloom_contains(\$1::public.bloom, k4)' $TL_OUT/explain-unlimited.txt &&
   [ "$(auto -c "$q")" = "$(auto -c "SET bloomfilter.runtime_filter = off" -c "$q")" ]; then
    pass "the same join without the LIMIT: the remote filter, the same answer"
else
    cat $TL_OUT/explain-unlimited.txt
    fail "the same join without the LIMIT: no remote filter, or another answer"
fi

# A remote server whose extension is in another schema than the local one:
# postgres_fdw would send public.bloom_contains(\$1::public.bloom, ...), which
# it rejects.  The join works with the filter on (no remote filter there),
# and a server that knows the names still gets one in the same session.
pgc_psql remote -c "CREATE DATABASE elsewhere" || fail "remote database elsewhere"
pgc_psql remote -d elsewhere <<'SQL' || fail "remote setup of the other schema"
CREATE SCHEMA bf;
CREATE EXTENSION bloomfilter SCHEMA bf;
CREATE TABLE fa AS SELECT g AS id, (g * 7919) % 6000 AS k4 FROM generate_series(1, 60000) g;
ANALYZE fa;
SQL
pgc_psql local <<SQL || fail "local setup of the other schema"
CREATE SERVER elsewhere FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '$(pgc_port remote)', dbname 'elsewhere', extensions 'bloomfilter');
CREATE USER MAPPING FOR CURRENT_USER SERVER elsewhere OPTIONS (user 'postgres');
CREATE FOREIGN TABLE fa_elsewhere (id int, k4 int) SERVER elsewhere OPTIONS (table_name 'fa');
SQL
q_else="SELECT count(*) FROM fa_elsewhere s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
auto -c "$q_else" -c "EXPLAIN (VERBOSE, COSTS OFF) $q_else" -c "$q" -c "EXPLAIN (VERBOSE, COSTS OFF) $q" \
    > $TL_OUT/elsewhere.txt 2>&1
cat $TL_OUT/elsewhere.txt
expected=$(auto -c "SET bloomfilter.runtime_filter = off" -c "$q_else")
if [ -n "$expected" ] && [ "$(head -n 1 $TL_OUT/elsewhere.txt)" = "$expected" ] &&
   ! grep -q 'ERROR' $TL_OUT/elsewhere.txt &&
   [ "$(grep -c 'bloom_contains(\$1::public.bloom, k4)' $TL_OUT/elsewhere.txt)" -eq 1 ]; then
    pass "extension in another schema on the remote: the join gives $expected with the filter on (no remote filter); a server that knows the names keeps its own"
else
    fail "extension in another schema on the remote: an error, another answer than $expected, or a filter in the wrong query"
fi

# A foreign table over a remote view (no ctid, so the scan that asks for
# the names fails): no remote filter for it, the same answer, and another
# table of that server still gets its filter in the same session.
pgc_psql remote -c "CREATE VIEW fa_view AS SELECT * FROM fa" || fail "remote view"
pgc_psql local -c "CREATE FOREIGN TABLE fa_view_r (id int, k4 int) SERVER warehouse OPTIONS (table_name 'fa_view')" ||
    fail "foreign table over the remote view"
q_view="SELECT count(*) FROM fa_view_r s JOIN dim_m d ON s.k4 = d.k4 WHERE d.sel"
auto -c "$q_view" -c "EXPLAIN (VERBOSE, COSTS OFF) $q_view" -c "EXPLAIN (VERBOSE, COSTS OFF) $q" \
    > $TL_OUT/view.txt 2>&1
cat $TL_OUT/view.txt
expected=$(auto -c "SET bloomfilter.runtime_filter = off" -c "$q_view")
if [ -n "$expected" ] && [ "$(head -n 1 $TL_OUT/view.txt)" = "$expected" ] && ! grep -q 'ERROR' $TL_OUT/view.txt &&
   [ "$(grep -c 'bloom_contains(\$1::public.bloom, k4)' $TL_OUT/view.txt)" -eq 1 ]; then
    pass "a foreign table over a remote view: $expected rows, no remote filter; the server's other table keeps its own"
else
    fail "a foreign table over a remote view: an error, another answer than $expected, or a filter in the wrong query"
fi

# Text keys and joins on two keys.  The remote tables hold text with
# non-ASCII characters, written as UTF-8 by the client: in the UTF-8
# database of the remote server, and in a LATIN1 one, whose text
# postgres_fdw converts on the way (so the bytes the remote server hashes are
# not those the local one receives: no text filter there).  Each join has the
# answer it has with the filters off; a filter, where shipped, removes rows.
text_table="CREATE TABLE ft AS SELECT g AS id, 'k' || (g % 5000) || CASE WHEN g % 3 = 0 THEN 'é' ELSE '' END AS kt,
    ('v' || (g % 5000) || 'ß')::varchar(20) AS kv, ('c' || (g % 5000))::char(8) AS kc, g % 5000 AS a, g % 7 AS b
FROM generate_series(1, 100000) g;
ANALYZE ft;"
pgc_psql remote -c "CREATE DATABASE latin ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" ||
    fail "remote database latin"
PGCLIENTENCODING=UTF8 pgc_psql remote -c "$text_table" || fail "remote text table"
PGCLIENTENCODING=UTF8 pgc_psql remote -d latin -c "CREATE EXTENSION bloomfilter" -c "$text_table" ||
    fail "remote text table in the LATIN1 database"
pgc_psql local <<SQL || fail "local setup of the text joins"
CREATE SERVER latin FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '$(pgc_port remote)', dbname 'latin', extensions 'bloomfilter');
CREATE USER MAPPING FOR CURRENT_USER SERVER latin OPTIONS (user 'postgres');
CREATE FOREIGN TABLE ft_utf8 (id int, kt text, kv varchar(20), kc char(8), a int, b int)
    SERVER warehouse OPTIONS (table_name 'ft');
CREATE FOREIGN TABLE ft_latin (id int, kt text, kv varchar(20), kc char(8), a int, b int)
    SERVER latin OPTIONS (table_name 'ft');
CREATE TABLE dim_t AS SELECT g AS a, g % 7 AS b, 'k' || g || CASE WHEN g % 3 = 0 THEN 'é' ELSE '' END AS kt,
    'v' || g || 'ß' AS kv, ('c' || g)::char(10) AS kc, g % 10 = 0 AS sel FROM generate_series(0, 4999) g;
ANALYZE dim_t;
DO \$\$ BEGIN
    CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN NULL;
END \$\$;
SQL
# JOIN_NAME|FOREIGN TABLE|JOIN CONDITION|HOW MANY FILTERS IN THE REMOTE SQL
text_joins=(
    "text key, same encoding|ft_utf8|d.kt = f.kt|1"
    "varchar key, same encoding|ft_utf8|d.kv = f.kv|1"
    "char(n) key, same encoding|ft_utf8|d.kc = f.kc|1"
    "text key under COLLATE \"C\"|ft_utf8|d.kt = f.kt COLLATE \"C\"|1"
    "two keys|ft_utf8|d.a = f.a AND d.b = f.b|2"
    "two keys, one text|ft_utf8|d.a = f.a AND d.kt = f.kt|2"
    "text key, a LATIN1 remote database|ft_latin|d.kt = f.kt|0"
    "varchar key, a LATIN1 remote database|ft_latin|d.kv = f.kv|0"
    "two keys, one text, a LATIN1 remote database|ft_latin|d.a = f.a AND d.kt = f.kt|1"
)
if [ "$(pgc_psql local -At -c "SELECT count(*) FROM pg_collation WHERE collname = 'ci'")" = 1 ]; then
    text_joins+=("text key, a nondeterministic collation|ft_utf8|d.kt = f.kt COLLATE ci|0")
else
    skip "text key, a nondeterministic collation: this server has no ICU"
fi
for j in "${text_joins[@]}"; do
    IFS='|' read -r name table cond want <<< "$j"
    q="SELECT count(*), count(DISTINCT f.id) FROM $table f JOIN dim_t d ON $cond WHERE d.sel"
    auto -c "EXPLAIN (VERBOSE, COSTS OFF) $q" > $TL_OUT/explain-text.txt
    got=$(grep 'Remote SQL' $TL_OUT/explain-text.txt | grep -o 'bloom_contains(\$[0-9]*::public.bloom, [a-z]*)' | wc -l)
    on=$(auto -c "$q")
    off=$(auto -c "SET bloomfilter.runtime_filter = off" -c "$q")
    shipped_on=$(PGOPTIONS="-c session_preload_libraries=bloomfilter" shipped "$q" | cut -d' ' -f1)
    if [ -n "$off" ] && [ "$on" = "$off" ] && [ "$got" -eq "$want" ] &&
       { [ "$want" -eq 0 ] || [ "${shipped_on:-100000}" -lt 100000 ]; }; then
        pass "$name: $want remote filter(s), $on (count, distinct) with the filters on and off, $shipped_on of 100000 rows shipped"
    else
        cat $TL_OUT/explain-text.txt
        fail "$name: $got remote filter(s) (wanted $want), $on with the filters on, $off off, $shipped_on rows shipped"
    fi
done

# A filter larger than the type allows (its text form would pass the 1 GB
# protocol limit): refused when it is made, before anything is sent, and the
# connection survives.
pgc_psql local -At > $TL_OUT/big.log 2>&1 <<'SQL'
\set ON_ERROR_STOP 0
SELECT count(*) FROM sales_remote s
WHERE bloom_contains((SELECT bloom_empty_mk(4500000000, 1)), s.customer_id);
SELECT 'still connected', count(*) FROM sales_remote WHERE id <= 10;
SQL
cat $TL_OUT/big.log
if grep -q 'ERROR:  bloom filter is too large' $TL_OUT/big.log &&
   grep -q '^still connected|10$' $TL_OUT/big.log &&
   ! grep -qi 'server closed the connection' $TL_OUT/big.log; then
    pass "a 562 MB filter is refused with a clear error when it is made, before anything is sent; the connection stays up"
else
    fail "no clear error at creation for a filter larger than the type allows (or the connection dropped)"
fi
tl_end
