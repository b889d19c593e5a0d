-- Seed 003: "SQL Queries" (Paimon's Spark query docs: metadata columns, bucket pushdown, time
-- travel, incremental queries, filter pushdown).

-- @setup
CREATE DATABASE IF NOT EXISTS seed003;
-- @setup
USE seed003;
-- The seed's examples read a table t; here an append table with two buckets and a partition.
-- @setup
CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)
  TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'id');
-- @setup
INSERT INTO t VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-01-01'), (3, 'c', '2024-01-02');
-- @setup
INSERT INTO t VALUES (4, 'd', '2024-01-02');

-- read all columns
-- @works
SELECT * FROM t;

-- read all columns and the corresponding file path, partition, bucket, rowIndex of the record
-- @works
SELECT *, __paimon_file_path, __paimon_partition, __paimon_bucket, __paimon_row_index FROM t;

-- @works
SELECT * FROM t WHERE __paimon_bucket IN (0, 1);

-- @works
SET spark.paimon.scan.preserve-data-grouping=true;
-- @works
SET spark.sql.sources.v2.bucketing.enabled=true;

-- @setup
CREATE TABLE t1 (bucket_key INT, x STRING) TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'bucket_key');
-- @setup
CREATE TABLE t2 (bucket_key INT, y STRING) TBLPROPERTIES ('bucket' = '2', 'bucket-key' = 'bucket_key');
-- @setup
INSERT INTO t1 VALUES (1, 'x1'), (2, 'x2');
-- @setup
INSERT INTO t2 VALUES (1, 'y1'), (3, 'y3');
-- @works
SELECT * FROM t1 JOIN t2 ON t1.bucket_key = t2.bucket_key;
-- @setup
RESET spark.paimon.scan.preserve-data-grouping;

-- read the snapshot with id 1L (use snapshot id as version)
-- @works
SELECT * FROM t VERSION AS OF 1;

-- read the snapshot from specified timestamp
-- The seed's timestamps are older than any snapshot of a table created today.
-- @error 2023-06-01
SELECT * FROM t TIMESTAMP AS OF '2023-06-01 00:00:00.123';

-- read the snapshot from specified timestamp in unix seconds
-- @error 2023
SELECT * FROM t TIMESTAMP AS OF 1678883047;

-- read tag 'my-tag'
-- @setup
CALL sys.create_tag(table => 'seed003.t', tag => 'my-tag', snapshot => 1);
-- @works
SELECT * FROM t VERSION AS OF 'my-tag';

-- read the snapshot from specified watermark. will match the first snapshot after the watermark
-- The table's commits carry no watermark (only Flink writes one).
-- @error no snapshot has a watermark
SELECT * FROM t VERSION AS OF 'watermark-1678883047356';

-- 'tableName' is the docs' placeholder; here a table with a few snapshots.
-- @setup
CREATE TABLE tableName (id INT, v STRING) TBLPROPERTIES ('bucket' = '1', 'primary-key' = 'id');
-- @setup
INSERT INTO tableName VALUES (1, 'a');
-- @setup
INSERT INTO tableName VALUES (2, 'b');

-- read the incremental data between snapshot id 12 and snapshot id 20.
-- @error 12
SELECT * FROM paimon_incremental_query('tableName', 12, 20);

-- read the incremental data between timestamps 1692169000000 and 1692169900000.
-- @works
SELECT * FROM paimon_incremental_between_timestamp('tableName', '1692169000000', '1692169900000');
-- @works
SELECT * FROM paimon_incremental_between_timestamp('tableName', '2025-03-12 00:00:00', '2025-03-12 00:08:00');

-- read the incremental data to tag '2024-12-04'.
-- Paimon will find an earlier tag and return changes between them.
-- If the tag doesn't exist or the earlier tag doesn't exist, return empty.
-- @rows
SELECT * FROM paimon_incremental_to_auto_tag('tableName', '2024-12-04');

-- @works
SET spark.paimon.read.repartition-large-blob-scan.enabled = true;

-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE orders (
catalog_id BIGINT,
order_id BIGINT,
amount DECIMAL(10, 2)
) TBLPROPERTIES (
'primary-key' = 'catalog_id,order_id'
);
-- @setup
CREATE TABLE IF NOT EXISTS orders (
catalog_id BIGINT,
order_id BIGINT,
amount DECIMAL(10, 2)
) TBLPROPERTIES (
'primary-key' = 'catalog_id,order_id',
'bucket' = '2'
);
-- @setup
INSERT INTO orders VALUES (1025, 29495, 1.50), (1025, 3000, 2.00), (7, 29495, 3.25);

-- @rows 1025,3000,2.00 | 1025,29495,1.50
SELECT * FROM orders WHERE catalog_id=1025;

-- @rows 1025,29495,1.50
SELECT * FROM orders WHERE catalog_id=1025 AND order_id=29495;

-- @rows 1025,3000,2.00
SELECT * FROM orders
WHERE catalog_id=1025
AND order_id>2035 AND order_id<6000;

-- @rows 1025,29495,1.50 | 7,29495,3.25
SELECT * FROM orders WHERE order_id=29495;

-- @rows 1025,29495,1.50 | 1025,3000,2.00 | 7,29495,3.25
SELECT * FROM orders WHERE catalog_id=1025 OR order_id=29495;
