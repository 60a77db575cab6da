#!/bin/sh
# A large rocprofv3 database for the browser benchmark of the SQLite worker (tests/bench/rocpd.mjs,
# docs/PERFORMANCE.md "rocpd databases in the browser"): the schema and the one-MI300X rows of
# engine/tests/fixtures/rocpd/ (its make.sh, mi300x.rows.sql), then DISPATCHES dispatches of the
# two kernels inserted by a recursive CTE, each with the fixture's 15 PMC event rows (14 counters,
# one in two instance rows). 480,000 dispatches make ≈ 500 MB with rocprofv3's 4 KiB pages. Not
# committed: written to OUT (default /tmp/rocpd-big_results.db). Needs the sqlite3 command.
#
#   sh tests/bench/rocpd-big.sh [DISPATCHES] [OUT]
set -eu
n=${1:-480000}
out=${2:-/tmp/rocpd-big_results.db}
here=$(cd "$(dirname "$0")/../.." && pwd)
schema=/work/shared/reference/rocpd-schema
[ -f "$schema/rocpd_tables.sql" ] || schema=$here/../shared/reference/rocpd-schema
uuid=0197a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b
guid=0197a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b
rm -f "$out"
{
    echo "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
    for f in rocpd_tables.sql rocpd_views.sql data_views.sql; do
        sed -e "s/{{uuid}}/_$uuid/g" -e "s/{{guid}}/$guid/g" "$schema/$f"
    done
    # The fixture's rows up to its dispatches: node, process, agents, kernels, PMC names.
    sed -e "s/{{uuid}}/_$uuid/g" -e "s/{{guid}}/$guid/g" "$here/engine/tests/fixtures/rocpd/mi300x.rows.sql" |
        awk '/INSERT INTO `rocpd_event/ { exit } { print }'
    sed -e "s/{{uuid}}/_$uuid/g" -e "s/{{guid}}/$guid/g" "$here/engine/tests/fixtures/rocpd/mi300x.rows.sql" |
        awk '/INSERT INTO `rocpd_info_pmc/ { p = 1 } p && /^INSERT INTO `rocpd_pmc_event/ { exit } p { print }'
    cat <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n)
INSERT INTO \`rocpd_event_$uuid\` (id, category_id, stack_id, parent_stack_id, correlation_id) SELECT i, 1, i, i, 0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n)
INSERT INTO \`rocpd_kernel_dispatch_$uuid\` (id, nid, pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, "end", private_segment_size, group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id)
SELECT i, 1, 1, 1, 1, 1 + i % 2, i, 1, 1, 1735689600000000000 + i * 1000000, 1735689600000000000 + i * 1000000 + 250000 - (i % 2) * 210000, 0, 16384, 256, 1, 1, 4096, 256, 1, 2, i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n),
     c(pmc, v) AS (VALUES (1, 1000), (2, 2000), (3, 3000), (4, 0), (5, 4000), (6, 600), (6, 400), (7, 100), (8, 300), (9, 250), (10, 200), (11, 700), (12, 5000), (13, 1500), (14, 500))
INSERT INTO \`rocpd_pmc_event_$uuid\` (event_id, pmc_id, value) SELECT i, pmc, v * (1 + i % 3) FROM n, c;
COMMIT;
SQL
} | sqlite3 -bail "$out"
ls -l "$out"
