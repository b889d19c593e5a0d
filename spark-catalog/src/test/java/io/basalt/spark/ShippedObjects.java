package io.basalt.spark;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/** Round trips through Spark's serializers, and sample engine values that tasks ship. */
public final class ShippedObjects {
  private ShippedObjects() {}

  /** The serializer settings Basalt supports, as the serializer matrix ITs configure them. */
  public enum Setting {
    JAVA,
    KRYO,
    KRYO_REGISTRATION_REQUIRED
  }

  /** Serializes {@code value} with {@code setting}'s Spark serializer and reads it back. */
  @SuppressWarnings("unchecked")
  public static <T> T roundTrip(T value, Setting setting) {
    SerializerInstance serializer = serializer(setting).newInstance();
    ClassTag<Object> tag = ClassTag$.MODULE$.AnyRef();
    ByteBuffer bytes = serializer.serialize(value, tag);
    return (T) serializer.deserialize(bytes, tag);
  }

  public static Serializer serializer(Setting setting) {
    SparkConf conf = new SparkConf(false);
    return switch (setting) {
      case JAVA -> new JavaSerializer(conf);
      case KRYO -> new KryoSerializer(conf);
      case KRYO_REGISTRATION_REQUIRED ->
          new KryoSerializer(
              conf.set("spark.kryo.registrationRequired", "true")
                  .set("spark.kryo.registrator", BasaltKryoRegistrator.class.getName()));
    };
  }

  /** A partition row {@code dt = '2024-10-09'} in BinaryRow form. */
  public static BinaryRow partition() {
    byte[] bytes = new byte[32];
    // slot: length 10 at offset 16 (format-notes.md 5.3); var part: the UTF-8 bytes
    ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(8, (16L << 32) | 10);
    byte[] text = "2024-10-09".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    System.arraycopy(text, 0, bytes, 16, text.length);
    return BinaryRowCodec.deserialize(serialized(1, bytes));
  }

  private static byte[] serialized(int arity, byte[] row) {
    return ByteBuffer.allocate(4 + row.length).putInt(arity).put(row).array();
  }

  public static DataFileMeta file(String name) {
    return DataFileMeta.newFile(
        name,
        1234,
        10,
        BinaryRow.EMPTY,
        BinaryRow.EMPTY,
        SimpleStats.EMPTY,
        SimpleStats.EMPTY,
        0,
        9,
        0,
        0,
        2,
        0,
        null);
  }

  public static DataSplit split() {
    return new DataSplit(
        3,
        partition(),
        1,
        4,
        List.of(file("data-1.parquet"), file("data-2.parquet")),
        false,
        Arrays.asList(new DeletionFile("index-1", 4, 20, 2L), null));
  }

  public static CommitMessage commitMessage() {
    return new CommitMessage(
        partition(),
        1,
        4,
        List.of(file("data-3.parquet")),
        List.of(file("data-1.parquet")),
        List.of(file("data-4.parquet")));
  }
}
