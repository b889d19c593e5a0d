package io.basalt.spark.read;

import io.basalt.BasaltException;
import io.basalt.rowtracking.RowTracking;
import io.basalt.schema.DataField;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The metadata columns a table offers ({@link #offered}) and those one scan reads: Spark adds them
 * to a scan's required columns only when a query refers to them, and a {@link SparkScan}'s read
 * schema is its table columns followed by its metadata columns.
 *
 * <ul>
 *   <li>{@value #PARTITION}: a struct of the row's partition values (Spark's nested schema pruning
 *       may ask for some of its fields only);
 *   <li>{@value #BUCKET}: the bucket of the row's data file;
 *   <li>{@value #FILE_PATH}: the full path of the row's data file;
 *   <li>{@value #ROW_INDEX}: the row's position in that file, counting every row of the file (rows
 *       that deletion vectors delete too);
 *   <li>{@value #ROW}: primary-key tables only, the row's own values as a struct of every table
 *       column. Row-level DELETE and MERGE INTO read it so that the -D rows they write carry the
 *       deleted row's values (its sequence fields above all), as Paimon's deletes do. Asking for it
 *       makes the scan read every table column, as rows.
 * </ul>
 *
 * The partition and the bucket are known per split. The file path and the row index need each row
 * to come from exactly one file: they cannot be read from a primary-key split that is merged on
 * read ({@link #checkReadable}). Row-tracking tables also offer Paimon's {@value #ROW_ID} and
 * {@value #SEQUENCE_NUMBER} (see {@link RowTracking}), read file by file like the row index.
 * {@value #SEQUENCE_NUMBER} is not preserved on update: Spark nulls it in the rows a copy-on-write
 * UPDATE or MERGE changes, so they take the new snapshot's.
 *
 * <p>Each column carries Paimon's field id for it in its metadata ({@link DataField#FIELD_ID_KEY});
 * metadata columns are never written to data files.
 */
public final class MetadataColumns implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String ROW_INDEX = "__paimon_row_index";
  public static final String FILE_PATH = "__paimon_file_path";
  public static final String PARTITION = "__paimon_partition";
  public static final String BUCKET = "__paimon_bucket";
  public static final String ROW = "__basalt_row";
  public static final String ROW_ID = RowTracking.ROW_ID;
  public static final String SEQUENCE_NUMBER = RowTracking.SEQUENCE_NUMBER;

  /** The field ids Paimon gives the metadata columns. */
  static final int ROW_INDEX_ID = Integer.MAX_VALUE - 100;

  static final int FILE_PATH_ID = Integer.MAX_VALUE - 101;
  static final int PARTITION_ID = Integer.MAX_VALUE - 102;
  static final int BUCKET_ID = Integer.MAX_VALUE - 103;

  /** Not a Paimon column: an id outside the range Paimon reserves for its metadata columns. */
  static final int ROW_VALUES_ID = Integer.MAX_VALUE - 150;

  private static final Set<String> NAMES =
      Set.of(ROW_INDEX, FILE_PATH, PARTITION, BUCKET, ROW, ROW_ID, SEQUENCE_NUMBER);

  private static final MetadataColumns NONE = new MetadataColumns(new StructType());

  /** The metadata columns one scan reads, in output order. */
  private final StructType fields;

  private MetadataColumns(StructType fields) {
    this.fields = fields;
  }

  /** No metadata columns. */
  static MetadataColumns none() {
    return NONE;
  }

  /** The metadata columns of {@code table}, as {@link SupportsMetadataColumns} lists them. */
  public static MetadataColumn[] offered(FileStoreTable table) {
    List<MetadataColumn> columns = new ArrayList<>();
    Set<String> tableColumns = Set.of(table.rowType().fieldNames());
    for (StructField field :
        Arrays.asList(
            column(PARTITION, PARTITION_ID, partitionType(table), false),
            column(BUCKET, BUCKET_ID, DataTypes.IntegerType, false),
            column(FILE_PATH, FILE_PATH_ID, DataTypes.StringType, false),
            column(ROW_INDEX, ROW_INDEX_ID, DataTypes.LongType, false),
            rowValuesColumn(table))) {
      // a table column of the same name wins
      if (field != null && !tableColumns.contains(field.name())) {
        columns.add(new Column(field));
      }
    }
    if (RowTracking.enabled(table.options())) {
      columns.add(new Column(RowTracking.rowIdField()));
      Metadata newOnUpdate =
          new MetadataBuilder()
              .withMetadata(RowTracking.sequenceNumberField().metadata())
              .putBoolean(MetadataColumn.PRESERVE_ON_UPDATE, false)
              .build();
      columns.add(
          new Column(new StructField(SEQUENCE_NUMBER, DataTypes.LongType, true, newOnUpdate)));
    }
    return columns.toArray(new MetadataColumn[0]);
  }

  /**
   * Whether {@code name} is a metadata column of a table whose columns are {@code tableSchema}, as
   * Spark asks for it in {@code pruneColumns}.
   */
  public static boolean isMetadataColumn(StructType tableSchema, String name) {
    return NAMES.contains(name) && !Arrays.asList(tableSchema.fieldNames()).contains(name);
  }

  /** The metadata columns among the fields of {@code readSchema}. */
  static MetadataColumns of(StructType tableSchema, StructType readSchema) {
    List<StructField> selected = new ArrayList<>();
    for (StructField field : readSchema.fields()) {
      if (isMetadataColumn(tableSchema, field.name())) {
        selected.add(field);
      }
    }
    return selected.isEmpty()
        ? NONE
        : new MetadataColumns(new StructType(selected.toArray(new StructField[0])));
  }

  /** The table columns of {@code readSchema}: those that are not metadata columns. */
  static StructType dataSchema(StructType tableSchema, StructType readSchema) {
    List<StructField> data = new ArrayList<>();
    for (StructField field : readSchema.fields()) {
      if (!isMetadataColumn(tableSchema, field.name())) {
        data.add(field);
      }
    }
    return new StructType(data.toArray(new StructField[0]));
  }

  private static StructField column(String name, int id, DataType type, boolean nullable) {
    Metadata metadata = new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build();
    return new StructField(name, type, nullable, metadata);
  }

  /**
   * The {@value #ROW} column of a primary-key table, or null. Spark keeps its value in the delete
   * rows of a row-level operation and, as its metadata says, drops it from updated rows unless the
   * table writes the old row of an update as -U.
   */
  @javax.annotation.Nullable
  private static StructField rowValuesColumn(FileStoreTable table) {
    if (!table.hasPrimaryKey()) {
      return null;
    }
    Metadata metadata =
        new MetadataBuilder()
            .putLong(DataField.FIELD_ID_KEY, ROW_VALUES_ID)
            // updates keep the old row only where they write it as -U (an input changelog)
            .putBoolean(
                MetadataColumn.PRESERVE_ON_UPDATE,
                io.basalt.table.RowLevelSupport.writesUpdateBefore(table))
            .build();
    return new StructField(
        ROW, io.basalt.spark.SparkTable.sparkSchema(table.schema()), true, metadata);
  }

  /** The partition columns as a struct, CHAR and VARCHAR as STRING (no length checks on reads). */
  private static StructType partitionType(FileStoreTable table) {
    return VectorizedReadOptions.requestedSchema(table.partitionType());
  }

  boolean isEmpty() {
    return fields.isEmpty();
  }

  StructType fields() {
    return fields;
  }

  /** Whether the scan reads {@value #ROW_INDEX}. */
  boolean rowIndex() {
    return fields.getFieldIndex(ROW_INDEX).isDefined();
  }

  /** Whether the scan reads {@value #ROW}: then it reads every table column, as rows. */
  boolean rowValues() {
    return fields.getFieldIndex(ROW).isDefined();
  }

  /** Whether some column needs each row to come from one data file: the file path or row index. */
  boolean needsSingleFile() {
    return fields.getFieldIndex(ROW_INDEX).isDefined()
        || fields.getFieldIndex(FILE_PATH).isDefined()
        || rowTracking();
  }

  /** Whether the scan reads {@value #ROW_ID} or {@value #SEQUENCE_NUMBER}. */
  boolean rowTracking() {
    return fields.getFieldIndex(ROW_ID).isDefined()
        || fields.getFieldIndex(SEQUENCE_NUMBER).isDefined();
  }

  /**
   * Fails, at planning, when a column needs each row to come from one data file and {@code splits}
   * has one whose rows are merged from several files on read.
   */
  void checkReadable(FileStoreTable table, List<DataSplit> splits) {
    if (!needsSingleFile() || !table.hasPrimaryKey()) {
      return;
    }
    for (DataSplit split : splits) {
      if (!split.rawConvertible()) {
        String column = rowIndex() ? ROW_INDEX : FILE_PATH;
        throw new BasaltException(
            String.format(
                "Cannot read metadata column %s of table %s: the table has a primary key and"
                    + " bucket %d%s has several versions of some keys in different files, which"
                    + " are merged on read, so a row does not come from a single data file."
                    + " Enable deletion vectors ('deletion-vectors.enabled' = 'true') or compact"
                    + " the table fully (CALL sys.compact(table => '%s')) before reading %s.",
                column,
                table.name(),
                split.bucket(),
                split.partition().arity() == 0 ? "" : " of a partition",
                table.name(),
                column));
      }
    }
  }

  /** The values of the metadata columns for the rows of one split; file-level values are set. */
  MetadataValues forSplit(FileStoreTable table, DataSplit split) {
    return new MetadataValues(fields, table, split);
  }

  /** A metadata column offered to Spark. */
  private record Column(StructField field) implements MetadataColumn {
    @Override
    public String name() {
      return field.name();
    }

    @Override
    public DataType dataType() {
      return field.dataType();
    }

    @Override
    public boolean isNullable() {
      return field.nullable();
    }

    @Override
    public String metadataInJSON() {
      return field.metadata().json();
    }

    /** What DESCRIBE TABLE EXTENDED shows beside the column. */
    @Override
    public String comment() {
      return switch (field.name()) {
        case PARTITION -> "the row's partition values";
        case BUCKET -> "the bucket of the row's data file";
        case FILE_PATH -> "the path of the row's data file";
        case ROW_INDEX -> "the row's position in its data file";
        case ROW ->
            "internal to Basalt: the row's values, which DELETE and MERGE INTO carry into the"
                + " delete rows they write; not meant for queries";
        default -> null;
      };
    }
  }
}
