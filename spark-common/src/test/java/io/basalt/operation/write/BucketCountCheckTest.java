package io.basalt.operation.write;

import static io.basalt.testing.TestTables.latestId;
import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write uses the configured bucket count, the one Spark clusters rows by; a plain write into a
 * partition whose files hold another count is refused before its first row is buffered.
 */
class BucketCountCheckTest {
  @TempDir Path dir;

  private static void commit(FileStoreTable table, TableWrite write) {
    table.newCommit("test").commit(write.prepareCommit(), Long.MAX_VALUE);
  }

  @Test
  void plainWriteIntoAPartitionWithAnotherCountIsRefused() {
    FileStoreTable two = TestTables.create(dir, true, List.of("p"), Map.of("bucket", "2"));
    TableWrite first = two.newWrite(null, false);
    first.write(row(1, "x", "a"));
    commit(two, first);
    FileStoreTable four = two.copyWithOptions(Map.of("bucket", "4"));

    TableWrite plain = four.newWrite(latestId(four), false);
    assertThatThrownBy(() -> plain.write(row(2, "y", "a")))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith(
            "Try to write partition {p=a} of table db.t with a new bucket num 4, but the previous"
                + " bucket num is 2. Nothing was committed.")
        .hasMessageContaining(
            "INSERT OVERWRITE db.t PARTITION (`p` = 'a') SELECT `id`, `v` FROM db.t WHERE `p` ="
                + " 'a'");
    // a new partition takes the configured count
    plain.write(row(3, "z", "b"));
    List<CommitMessage> messages = plain.prepareCommit();
    assertThat(messages).isNotEmpty().allMatch(m -> m.totalBuckets() == 4);
    four.newCommit("test").abort(messages);

    // an overwrite rewrites the partition with the configured count
    TableWrite overwrite = four.newWrite(latestId(four), true);
    overwrite.write(row(2, "y", "a"));
    assertThat(overwrite.prepareCommit()).allMatch(m -> m.totalBuckets() == 4);
  }

  @Test
  void anUnpartitionedTableIsNamedAsAWhole() {
    FileStoreTable two =
        TestTables.create(dir, false, List.of(), Map.of("bucket", "2", "bucket-key", "id"));
    TableWrite first = two.newWrite(null, false);
    first.write(row(1, "x"));
    commit(two, first);
    FileStoreTable unaware = two.copyWithOptions(Map.of("bucket", "-1"));

    TableWrite plain = unaware.newWrite(latestId(unaware), false);
    assertThatThrownBy(() -> plain.write(row(2, "y")))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith(
            "Try to write table db.t with a new bucket num -1, but the previous bucket num is 2.")
        .hasMessageContaining("INSERT OVERWRITE db.t SELECT * FROM db.t");
  }

  @Test
  void aDatePartitionGetsAGeneralHint() {
    FileStoreTable two =
        FileStoreTable.create(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(dir.toUri()),
            "db.d",
            SchemaFactory.create(
                0,
                new StructType()
                    .add("id", DataTypes.LongType, false)
                    .add("day", DataTypes.DateType, false),
                List.of("day"),
                List.of("id", "day"),
                Map.of("bucket", "2"),
                null));
    TableWrite first = two.newWrite(null, false);
    first.write(new GenericInternalRow(new Object[] {1L, 19723}));
    commit(two, first);
    FileStoreTable three = two.copyWithOptions(Map.of("bucket", "3"));

    TableWrite plain = three.newWrite(latestId(three), false);
    assertThatThrownBy(() -> plain.write(new GenericInternalRow(new Object[] {2L, 19723})))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "partition {day=19723} of table db.d with a new bucket num 3, but the previous bucket"
                + " num is 2")
        .hasMessageContaining("INSERT OVERWRITE db.d PARTITION (...) of that partition");
  }
}
