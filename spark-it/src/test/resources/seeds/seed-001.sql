-- Seed 001: "Data Lake Formation: Paimon primary key tables" (aggregation, nested_update,
-- sequence groups, partial-update with aggregation).

-- @setup
CREATE DATABASE IF NOT EXISTS seed001;
-- @setup
USE seed001;

-- Main orders table
-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE orders (
  order_id BIGINT PRIMARY KEY NOT ENFORCED,
  user_name STRING,
  address STRING
);
-- @setup
CREATE TABLE IF NOT EXISTS orders (
  order_id BIGINT PRIMARY KEY NOT ENFORCED,
  user_name STRING,
  address STRING
) WITH ('bucket' = '1');

-- Sub order table
-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE sub_orders (
  order_id BIGINT,
  sub_order_id INT,
  product_name STRING,
  price BIGINT,
  PRIMARY KEY (order_id, sub_order_id) NOT ENFORCED
);
-- @setup
CREATE TABLE IF NOT EXISTS sub_orders (
  order_id BIGINT,
  sub_order_id INT,
  product_name STRING,
  price BIGINT,
  PRIMARY KEY (order_id, sub_order_id) NOT ENFORCED
) WITH ('bucket' = '1');

-- Wide table
-- Aggregate sub orders
-- And deduplicate sub orders based on sub_order_id
-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE order_wide (
  order_id BIGINT PRIMARY KEY NOT ENFORCED,
  user_name STRING,
  address STRING,
  sub_orders ARRAY<ROW<sub_order_id BIGINT, product_name STRING, price BIGINT>>
) WITH (
  'merge-engine' = 'aggregation',
  'fields.sub_orders.aggregate-function' = 'nested_update',
  'fields.sub_orders.nested-key' = 'sub_order_id'
);
-- @setup
CREATE TABLE IF NOT EXISTS order_wide (
  order_id BIGINT PRIMARY KEY NOT ENFORCED,
  user_name STRING,
  address STRING,
  sub_orders ARRAY<ROW<sub_order_id BIGINT, product_name STRING, price BIGINT>>
) WITH (
  'merge-engine' = 'aggregation',
  'fields.sub_orders.aggregate-function' = 'nested_update',
  'fields.sub_orders.nested-key' = 'sub_order_id',
  'bucket' = '1'
);

-- "Assume the orders table has data" (the seed's rows; the second cherry row is a later update)
-- @setup
INSERT INTO orders VALUES (1, 'Alice', 'add1'), (2, 'Bob', 'add2');
-- @setup
INSERT INTO sub_orders VALUES
  (1, 11, 'apple', 10), (1, 12, 'banana', 20), (2, 21, 'cherry', 30), (2, 22, 'peach', 40);
-- @setup
INSERT INTO sub_orders VALUES (2, 21, 'cherry', 50);

-- @works
INSERT INTO order_wide

SELECT
  order_id,
  user_name,
  address,
  CAST (NULL AS ARRAY<ROW<sub_order_id BIGINT, product_name STRING, price BIGINT>>)
FROM orders

UNION ALL

SELECT
  order_id,
  CAST (NULL AS STRING),
  CAST (NULL AS STRING),
  ARRAY[ROW(sub_order_id, product_name, price)]
FROM sub_orders;

-- The seed's result; elements written in one commit have no defined order, so they are sorted.
-- @rows 1,Alice,add1,11:apple:10;12:banana:20 | 2,Bob,add2,21:cherry:50;22:peach:40
SELECT order_id, user_name, address,
  array_join(array_sort(transform(sub_orders, s -> concat_ws(':', s.sub_order_id, s.product_name, s.price))), ';')
FROM order_wide;

-- Sequence groups
-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE T (
  k INT,
  a STRING,
  b STRING,
  g_1 INT,
  c STRING,
  d STRING,
  g_2 INT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'merge-engine' = 'partial-update',
  'fields.g_1.sequence-group' = 'a,b',
  'fields.g_2.sequence-group' = 'c,d'
);
-- @setup
CREATE TABLE IF NOT EXISTS T (
  k INT,
  a STRING,
  b STRING,
  g_1 INT,
  c STRING,
  d STRING,
  g_2 INT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'merge-engine' = 'partial-update',
  'fields.g_1.sequence-group' = 'a,b',
  'fields.g_2.sequence-group' = 'c,d',
  'bucket' = '1'
);
-- "higher value means newer data": an older g_1 row does not change a and b
-- @setup
INSERT INTO T VALUES (1, 'a2', 'b2', 2, 'c1', 'd1', 1);
-- @setup
INSERT INTO T VALUES (1, 'a1', 'b1', 1, 'c2', NULL, 2);
-- A newer group row overwrites every column of its group, NULL too (Paimon's code; see
-- docs/paimon-compatibility.md).
-- @rows 1,a2,b2,2,c2,null,2
SELECT * FROM T;

-- Table widening with aggregation
-- @setup
DROP TABLE T;
-- @works (dynamic bucket mode: the seed sets no 'bucket', so Basalt uses -1 as Paimon does)
CREATE TABLE T (
  k INT,
  a STRING,
  b INT,
  g_1 INT,
  c STRING,
  d INT,
  g_2 INT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'merge-engine' = 'partial-update',
  'fields.g_1.sequence-group' = 'a,b',
  'fields.b.aggregate-function' = 'max',
  'fields.g_2.sequence-group' = 'c,d',
  'fields.d.aggregate-function' = 'sum'
);
-- @setup
CREATE TABLE IF NOT EXISTS T (
  k INT,
  a STRING,
  b INT,
  g_1 INT,
  c STRING,
  d INT,
  g_2 INT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'merge-engine' = 'partial-update',
  'fields.g_1.sequence-group' = 'a,b',
  'fields.b.aggregate-function' = 'max',
  'fields.g_2.sequence-group' = 'c,d',
  'fields.d.aggregate-function' = 'sum',
  'bucket' = '1'
);
-- @setup
INSERT INTO T VALUES (1, 'a1', 5, 1, 'c1', 10, 1);
-- @setup
INSERT INTO T VALUES (1, NULL, 3, 2, NULL, 7, 2);
-- The seed says a and c keep "the latest non-null value (defaults to last_non_null_value)";
-- Paimon's code (and Basalt) let the newer group row's NULL overwrite them.
-- @rows 1,null,5,2,null,17,2
SELECT * FROM T;
-- 'fields.default-aggregate-function' = 'last_non_null_value' gives the seed's behaviour.
-- @setup
CREATE TABLE T_seed_wording (
  k INT, a STRING, b INT, g_1 INT, c STRING, d INT, g_2 INT,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'merge-engine' = 'partial-update',
  'fields.g_1.sequence-group' = 'a,b',
  'fields.b.aggregate-function' = 'max',
  'fields.g_2.sequence-group' = 'c,d',
  'fields.d.aggregate-function' = 'sum',
  'fields.default-aggregate-function' = 'last_non_null_value',
  'bucket' = '1'
);
-- @setup
INSERT INTO T_seed_wording VALUES (1, 'a1', 5, 1, 'c1', 10, 1);
-- @setup
INSERT INTO T_seed_wording VALUES (1, NULL, 3, 2, NULL, 7, 2);
-- @rows 1,a1,5,2,c1,17,2
SELECT * FROM T_seed_wording;
