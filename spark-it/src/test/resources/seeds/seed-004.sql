-- Seed 004: an article on Paimon in production (primary-key tables, merge engines, changelog
-- producers, write-only compaction, buckets, lookup joins, retention, tags). Its SQL is Flink SQL.

-- @setup
CREATE DATABASE IF NOT EXISTS db;
-- @setup
USE db;

-- @works
CREATE TABLE paimon_orders (
    order_id     BIGINT,
    user_id      BIGINT,
    status       STRING,
    amount       DECIMAL(18,2),
    update_time  TIMESTAMP(3),
    dt           STRING,
    PRIMARY KEY (order_id, dt) NOT ENFORCED
) PARTITIONED BY (dt)
WITH (
    'bucket'                 = '16',
    'merge-engine'           = 'deduplicate',
    'sequence.field'         = 'update_time',
    'changelog-producer'     = 'lookup',
    'compaction.max.file-num'= '50'
);
-- @setup
CREATE TABLE IF NOT EXISTS paimon_orders (
    order_id     BIGINT,
    user_id      BIGINT,
    status       STRING,
    amount       DECIMAL(18,2),
    update_time  TIMESTAMP(3),
    dt           STRING,
    PRIMARY KEY (order_id, dt) NOT ENFORCED
) PARTITIONED BY (dt)
WITH (
    'bucket'                 = '16',
    'merge-engine'           = 'deduplicate',
    'sequence.field'         = 'update_time',
    'compaction.max.file-num'= '50'
);

-- The seed's mistakes: 'sum' on total_amt outside any sequence group, and the sequence group
-- names a column login_time the table does not have.
-- @error login_time
CREATE TABLE user_profile_wide (
    user_id      BIGINT,
    nickname     STRING,
    city         STRING,
    last_login   TIMESTAMP(3),
    total_amt    DECIMAL(18,2),
    PRIMARY KEY (user_id) NOT ENFORCED
) WITH (
    'merge-engine'  = 'partial-update',
    'fields.total_amt.aggregate-function' = 'sum',
    'fields.last_login.sequence-group' = 'login_time'
);

-- 写入作业：关闭自动 compaction，只负责刷文件
-- @works
ALTER TABLE paimon_orders SET (
    'write-only' = 'true'
);

-- @setup
INSERT INTO paimon_orders VALUES
  (1, 10, 'new', 9.99, TIMESTAMP_NTZ '2026-10-01 08:00:00', '20261001'),
  (2, 11, 'new', 5.00, TIMESTAMP_NTZ '2026-10-01 08:01:00', '20261001');

-- 独立 compaction 作业，dedicated 资源，可随时调并发
-- order_strategy sorts append tables; a primary-key table stays sorted by its key.
-- @error order_strategy 'order' applies to append tables only
CALL sys.compact(
    `table` => 'db.paimon_orders',
    partitions => 'dt=20261001',
    order_strategy => 'order'
);

-- @works
CREATE TABLE dim_user (
    user_id BIGINT,
    city    STRING,
    level   STRING,
    PRIMARY KEY (user_id) NOT ENFORCED
) WITH ('bucket' = '8', 'changelog-producer' = 'lookup');
-- @setup
CREATE TABLE IF NOT EXISTS dim_user (
    user_id BIGINT,
    city    STRING,
    level   STRING,
    PRIMARY KEY (user_id) NOT ENFORCED
) WITH ('bucket' = '8');

-- kafka_orders is a Flink Kafka source and FOR SYSTEM_TIME AS OF a column is a Flink lookup join.
-- @error is a Flink lookup join
SELECT o.order_id, d.city, d.level, o.amount
FROM kafka_orders AS o
LEFT JOIN dim_user FOR SYSTEM_TIME AS OF o.proc_time AS d
ON o.user_id = d.user_id;

-- @works
ALTER TABLE paimon_orders SET (
    'snapshot.time-retained'      = '1 h',
    'snapshot.num-retained.min'   = '10',
    'snapshot.num-retained.max'   = '100',
    'changelog.time-retained'     = '1 d',
    'partition.expiration-time'   = '30 d',
    'partition.expiration-check-interval' = '1 d'
);

-- 创建每日 tag，保留 7 天
-- @works
CALL sys.create_tag(`table` => 'db.paimon_orders', tag => 'dt-20261001');
-- @works
CALL sys.expire_tags(`table` => 'db.paimon_orders', expire_time => '7 d');
