#!/usr/bin/env bash
# Every test of a pg_regress directory on exactly one line of its schedule,
# and no line naming a test that is not there (make installcheck runs this
# first, pg/pg.mk's REGRESS_PREP).
#   tools/check-schedule.sh DIR      DIR/*.sql against DIR/schedule
# Silent and exit 0 when they agree; otherwise what differs and how to fix it.
set -eu
dir=$1
tests=$(cd "$dir" && ls ./*.sql | sed 's#^\./##; s#\.sql$##' | sort)
scheduled=$(sed -n 's/^test: *//p' "$dir/schedule" | tr ' ' '\n' | grep . | sort)
missing=$(comm -23 <(echo "$tests") <(echo "$scheduled" | sort -u) | xargs)
unknown=$(comm -13 <(echo "$tests") <(echo "$scheduled" | sort -u) | xargs)
twice=$(echo "$scheduled" | uniq -d | xargs)
[ -z "$missing$unknown$twice" ] && exit 0
echo "$dir/schedule: not scheduled: ${missing:-none}; scheduled twice: ${twice:-none}; no such test: ${unknown:-none}." >&2
echo "Add each new $dir/NAME.sql to a 'test:' line of $dir/schedule: the first line, or a line of its own" \
    "when it changes what other tests see (server settings, objects of a name another test uses, a VACUUM" \
    "that must remove every dead row)." >&2
exit 1
