package io.basalt.benchmarks;

/**
 * One system of {@link PeerBenchmark}: how it creates, loads, upserts and names its tables. Every
 * method runs SQL in the benchmark's one session; the timed ones ({@link #load}, {@link #upsert})
 * do exactly the work the step measures, the rest is setup.
 */
interface PeerSystem {

  /** The column header of the report, e.g. {@code Iceberg 1.12 MoR}. */
  String label();

  /** The name for {@code --systems}, e.g. {@code iceberg}. */
  String id();

  /**
   * Drops the orders table (and its files) and creates it empty, so the next {@link #load} starts
   * from nothing. Untimed.
   */
  void reset();

  /** Timed: bulk-loads the rows of the temporary view {@code sourceView} into the orders table. */
  void load(String sourceView);

  /**
   * Timed: upserts the rows of {@code batchView} (updates and new keys, keyed by (dt, order_id)) as
   * round {@code round} (1-based).
   */
  void upsert(String batchView, int round);

  /** The orders table as a SQL relation, for the read steps. */
  String orders();

  /** The version the orders table is at now, for {@link #ordersAsOf}. */
  long currentVersion();

  /** The orders table at {@code version} (from {@link #currentVersion}) as a SQL relation. */
  String ordersAsOf(long version);

  /**
   * Creates and loads the two tables of the join step from the views {@code leftView} and {@code
   * rightView}, laid out as the orders table is. Untimed.
   */
  void createJoinTables(String leftView, String rightView);

  /** The join step's two tables as SQL relations, left first. */
  String joinLeft();

  String joinRight();
}
