package io.basalt.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.schema.SchemaFactory;
import io.basalt.schema.SchemaParser;
import io.basalt.schema.TableSchema;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class MetadataJsonRoundTripTest {

  @Test
  void fullSnapshotRoundTrips() {
    Snapshot snapshot =
        new Snapshot(
            Snapshot.CURRENT_VERSION,
            42,
            3,
            "manifest-list-base",
            1234L,
            "manifest-list-delta",
            99L,
            "manifest-list-changelog",
            7L,
            "index-manifest-1",
            "user-\"quoted\"",
            Snapshot.BATCH_COMMIT_IDENTIFIER,
            CommitKind.OVERWRITE,
            1_700_000_000_123L,
            Map.of(0, 10L, 3, 30L),
            1_000_000L,
            -500L,
            12L,
            Long.MIN_VALUE,
            "stats-1",
            Map.of("k", "v", "üñí", "✓"),
            77L);
    String json = SnapshotParser.toJson(snapshot);
    assertThat(SnapshotParser.fromJson(json, "snapshot-42")).isEqualTo(snapshot);
    assertThat(SnapshotParser.toJson(SnapshotParser.fromJson(json, "snapshot-42"))).isEqualTo(json);
  }

  @Test
  void minimalSnapshotRoundTrips() {
    for (CommitKind kind : CommitKind.values()) {
      Snapshot snapshot =
          new Snapshot(
              Snapshot.CURRENT_VERSION,
              1,
              0,
              "b",
              null,
              "d",
              null,
              null,
              null,
              null,
              "u",
              0,
              kind,
              0,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null);
      assertThat(SnapshotParser.fromJson(SnapshotParser.toJson(snapshot), "snapshot-1"))
          .isEqualTo(snapshot);
    }
  }

  @Test
  void schemaRoundTrips() {
    Metadata comment = new MetadataBuilder().putString("comment", "the id").build();
    StructType nested =
        new StructType()
            .add("x", DataTypes.IntegerType)
            .add("tags", DataTypes.createArrayType(DataTypes.StringType));
    StructType type =
        new StructType()
            .add("id", DataTypes.LongType, false, comment)
            .add("name", DataTypes.StringType)
            .add("price", DataTypes.createDecimalType(18, 4))
            .add("ts", DataTypes.TimestampType)
            .add("tsntz", DataTypes.TimestampNTZType)
            .add("d", DataTypes.DateType)
            .add("bin", DataTypes.BinaryType)
            .add("m", DataTypes.createMapType(DataTypes.StringType, nested))
            .add("s", nested)
            .add("dt", DataTypes.StringType, false);
    TableSchema schema =
        SchemaFactory.create(
            0,
            type,
            List.of("dt"),
            List.of("id", "dt"),
            Map.of("bucket", "4", "file.compression", "zstd"),
            "a table");
    String json = SchemaParser.toJson(schema);
    TableSchema parsed = SchemaParser.parse(json, "schema-0");
    assertThat(parsed).isEqualTo(schema);
    assertThat(parsed.rowType()).isEqualTo(schema.rowType());
    assertThat(SchemaParser.toJson(parsed)).isEqualTo(json);
  }
}
