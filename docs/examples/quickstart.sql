-- Basalt quickstart: a partitioned primary-key table, upserts, and a partition overwrite.
CREATE DATABASE IF NOT EXISTS shop;

DROP TABLE IF EXISTS shop.orders;

CREATE TABLE shop.orders (
  order_id BIGINT,
  customer STRING,
  amount DECIMAL(10, 2),
  dt STRING
) PARTITIONED BY (dt)
TBLPROPERTIES ('primary-key' = 'dt,order_id', 'bucket' = '4');

INSERT INTO shop.orders VALUES
  (1, 'alice', 10.00, '2026-11-28'),
  (2, 'bob',   20.00, '2026-11-28'),
  (3, 'carol', 30.00, '2026-11-29');

-- Same keys again: the newest version of each key wins (deduplicate merge engine).
INSERT INTO shop.orders VALUES
  (2, 'bob',   25.50, '2026-11-28'),
  (4, 'dave',  40.00, '2026-11-29');

SELECT * FROM shop.orders ORDER BY dt, order_id;

-- Replace one partition; the other keeps its rows.
INSERT OVERWRITE shop.orders PARTITION (dt = '2026-11-29') VALUES
  (5, 'erin', 50.00);

SELECT * FROM shop.orders ORDER BY dt, order_id;
