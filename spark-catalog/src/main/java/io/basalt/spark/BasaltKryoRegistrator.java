package io.basalt.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.util.List;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Registers the classes Basalt ships between driver and tasks, for clusters that run Kryo with
 * {@code spark.kryo.registrationRequired=true}:
 *
 * <pre>
 * spark.serializer=org.apache.spark.serializer.KryoSerializer
 * spark.kryo.registrator=io.basalt.spark.BasaltKryoRegistrator
 * </pre>
 *
 * <p>Each class is serialized by Kryo's {@link JavaSerializer}: they are records or hold engine
 * records (commit messages, splits, file metadata), and Kryo 4's field serializer cannot create
 * records. Without registration required, the same classes pick that serializer up from their
 * {@code @DefaultSerializer} annotation, so this registrator is then optional.
 */
public final class BasaltKryoRegistrator implements KryoRegistrator {

  /** Every class Spark may pass to {@code spark.serializer}; kept in step with the annotations. */
  static final List<String> SHIPPED_CLASSES =
      List.of(
          "io.basalt.spark.write.SparkCommitMessage",
          "io.basalt.spark.write.SparkDataWriterFactory",
          "io.basalt.spark.write.SparkDeltaWriterFactory",
          "io.basalt.spark.read.PackedInputPartition",
          "io.basalt.spark.read.GroupedInputPartition",
          "io.basalt.spark.read.SparkReaderFactory",
          "io.basalt.spark.read.IncrementalInputPartition",
          "io.basalt.spark.read.IncrementalReaderFactory",
          "io.basalt.spark.procedures.CompactJob$TaskInput",
          "io.basalt.spark.procedures.CompactJob$TaskResult",
          "io.basalt.spark.procedures.PostponedCompactJob$TaskInput",
          "io.basalt.spark.procedures.PostponedCompactJob$TaskResult",
          "io.basalt.spark.procedures.RescaleJob$TaskInput",
          "io.basalt.spark.procedures.RescaleJob$TaskResult");

  @Override
  public void registerClasses(Kryo kryo) {
    for (String name : SHIPPED_CLASSES) {
      // the loader that loaded Basalt, whether from the application class path or --jars
      kryo.register(
          shippedClass(name, BasaltKryoRegistrator.class.getClassLoader()), new JavaSerializer());
    }
  }

  static Class<?> shippedClass(String name, ClassLoader loader) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "BasaltKryoRegistrator cannot load class "
              + name
              + "; the registrator and the Basalt classes must come from the same Basalt jar:"
              + " check that only one Basalt version is on the class path",
          e);
    }
  }
}
