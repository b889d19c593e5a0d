package io.basalt.spark.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowKind;

/**
 * Apache Paimon 1.3.1's own Java API over the test's warehouse, as an outside reader and writer of
 * the tables Basalt SQL sees. Rows are rendered like {@link SparkTestBase#rows}: values joined by
 * commas, sorted; timestamps as ISO local date-times, as Spark's TIMESTAMP_NTZ rows print.
 */
final class PaimonInterop implements AutoCloseable {
  private final Catalog catalog;

  PaimonInterop(Path warehouse) {
    Options options = new Options();
    options.set("warehouse", warehouse.toUri().toString());
    // every test reads what the other system just committed
    options.set("cache-enabled", "false");
    this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
  }

  Catalog catalog() {
    return catalog;
  }

  Table table(String db, String name) throws Exception {
    return catalog.getTable(Identifier.create(db, name));
  }

  /** Writes {@code rows} (with their row kinds) in one Paimon batch commit. */
  void write(String db, String name, InternalRow... rows) throws Exception {
    BatchWriteBuilder builder = table(db, name).newBatchWriteBuilder();
    try (BatchTableWrite write = (BatchTableWrite) builder.newWrite().withIOManager(ioManager());
        BatchTableCommit commit = builder.newCommit()) {
      for (InternalRow row : rows) {
        write.write(row);
      }
      commit.commit(write.prepareCommit());
    }
  }

  /** Compacts every bucket fully with Paimon's writer. */
  void compact(String db, String name) throws Exception {
    BatchWriteBuilder builder = table(db, name).newBatchWriteBuilder();
    try (BatchTableWrite write = (BatchTableWrite) builder.newWrite().withIOManager(ioManager());
        BatchTableCommit commit = builder.newCommit()) {
      for (Split split : table(db, name).newReadBuilder().newScan().plan().splits()) {
        DataSplit data = (DataSplit) split;
        write.compact(data.partition(), data.bucket(), true);
      }
      commit.commit(write.prepareCommit());
    }
  }

  // first-row and deletion-vector writes look keys up through local disk
  private static IOManager ioManager() {
    return IOManager.create(System.getProperty("java.io.tmpdir"));
  }

  /**
   * Compacts buckets 0 to {@code buckets} - 1 of an unpartitioned table fully with Paimon's writer,
   * including buckets a read does not see yet (only level-0 files).
   */
  void compactUnpartitioned(String db, String name, int buckets) throws Exception {
    // a compaction job compacts even tables whose writers are write-only
    BatchWriteBuilder builder =
        table(db, name).copy(Map.of("write-only", "false")).newBatchWriteBuilder();
    try (BatchTableWrite write = (BatchTableWrite) builder.newWrite().withIOManager(ioManager());
        BatchTableCommit commit = builder.newCommit()) {
      for (int bucket = 0; bucket < buckets; bucket++) {
        write.compact(BinaryRow.EMPTY_ROW, bucket, true);
      }
      commit.commit(write.prepareCommit());
    }
  }

  /** The table's rows as Paimon's own batch read returns them. */
  List<String> rows(String db, String name) throws Exception {
    return read(db, name, false);
  }

  /** The table's rows, each followed by the bucket Paimon read it from. */
  List<String> rowsWithBucket(String db, String name) throws Exception {
    return read(db, name, true);
  }

  /** The rows Paimon reads from {@code table} (for example a copy with 'scan.tag-name'). */
  List<String> rows(Table table) throws Exception {
    return read(table, false);
  }

  private List<String> read(String db, String name, boolean withBucket) throws Exception {
    return read(table(db, name), withBucket);
  }

  private List<String> read(Table table, boolean withBucket) throws Exception {
    List<DataField> fields = table.rowType().getFields();
    InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[fields.size()];
    for (int i = 0; i < getters.length; i++) {
      getters[i] = InternalRow.createFieldGetter(fields.get(i).type(), i);
    }
    ReadBuilder builder = table.newReadBuilder();
    List<String> result = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      String bucket = withBucket ? "," + ((DataSplit) split).bucket() : "";
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(
            row -> {
              if (row.getRowKind() != RowKind.INSERT && row.getRowKind() != RowKind.UPDATE_AFTER) {
                throw new IllegalStateException("Paimon's batch read returned a " + row);
              }
              StringBuilder sb = new StringBuilder();
              for (int i = 0; i < getters.length; i++) {
                sb.append(i == 0 ? "" : ",").append(getters[i].getFieldOrNull(row));
              }
              result.add(sb.append(bucket).toString());
            });
      }
    }
    result.sort(null);
    return result;
  }

  @Override
  public void close() throws Exception {
    catalog.close();
  }
}
